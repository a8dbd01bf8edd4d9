package gateway

import (
	"encoding/json"
	"net/http"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// writeStatus answers a request the gateway does not forward with a
// Kubernetes Status, as kube-apiserver answers its errors, so that clients
// (client-go's errors.IsTooManyRequests and the rest) read it as theirs.
func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, message string) {
	body, _ := json.Marshal(&metav1.Status{ // a Status marshals
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  message,
		Reason:   reason,
		Code:     int32(code),
	})
	h := w.Header()
	h["Content-Type"] = jsonContent
	h["X-Content-Type-Options"] = noSniff
	w.WriteHeader(code)
	_, _ = w.Write(append(body, '\n'))
}

var (
	jsonContent = []string{"application/json"}
	noSniff     = []string{"nosniff"}
)
