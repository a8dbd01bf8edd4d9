package manifest

import (
	"encoding/json"
	"testing"
)

// readHeadCases are documents readHead reads itself and ones it leaves to
// encoding/json.
var readHeadCases = []string{
	`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web","namespace":"shop","labels":{"a":"b"}},"spec":{"ports":[{"port":80}]}}`,
	`{"kind":"Gateway","apiVersion":"gateway.networking.k8s.io/v1","spec":{"x":[1,2,{"y":"}"}],"z":"\"]"},"metadata":{"name":"a"}}`,
	`{"apiVersion":"v1","kind":"List","items":[{"kind":"Service"}]}`,
	`{"apiVersion":"v1","apiVersion":"v2","metadata":{"name":"a"},"metadata":{"namespace":"b"}}`,
	` { "apiVersion" : "v1" , "n" : 1.5e3 , "b" : true , "z" : null } `,
	`{"APIVersion":"v1","kind":"K"}`, `{"Kind":"K"}`, `{"metadata":{"NAME":"x"}}`, `{"\u006bind":"K"}`,
	`{"kind":"K\u00e9"}`, `{"kind":"é"}`, `{"kind":1}`, `{"kind":null}`, `{"metadata":"x"}`, `{"metadata":null}`,
	`[]`, `"x"`, `null`, `{}`, `{"":1}`, `{"kind":"K","\u212aind":"L"}`,
}

// TestReadHeadAgreesWithEncodingJSON: wherever readHead reads a document,
// it reads what json.Unmarshal into a typeMeta reads.
func TestReadHeadAgreesWithEncodingJSON(t *testing.T) {
	read := 0
	for _, c := range readHeadCases {
		if sameHead(t, []byte(c)) {
			read++
		}
	}
	if read < 5 {
		t.Errorf("readHead read %d of the documents itself, want the common ones", read)
	}
}

// sameHead checks readHead against json.Unmarshal for data, valid JSON,
// and says whether readHead read it.
func sameHead(t *testing.T, data []byte) bool {
	t.Helper()
	got, ok := readHead(data)
	if !ok {
		return false
	}
	var want typeMeta
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: readHead read %+v, json.Unmarshal fails: %v", data, got, err)
	}
	if got != want {
		t.Fatalf("%s: readHead read %+v, json.Unmarshal %+v", data, got, want)
	}
	return true
}

func FuzzReadHead(f *testing.F) {
	for _, c := range readHeadCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) {
			sameHead(t, data)
		}
	})
}
