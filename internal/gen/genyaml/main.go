package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/internal/gen"
)

func main() {
	routes := flag.Int("routes", 1000, "the number of HTTPRoutes")
	seed := flag.Uint64("seed", 1, "the generator's seed: same seed, same objects")
	flag.Parse()
	if *routes < 0 {
		fmt.Fprintln(os.Stderr, "genyaml: -routes must not be negative")
		os.Exit(2)
	}
	w := bufio.NewWriter(os.Stdout)
	for i, obj := range gen.Objects(gen.Config{Seed: *seed, Routes: *routes}) {
		data, err := yaml.Marshal(obj)
		if err != nil {
			fmt.Fprintln(os.Stderr, "genyaml:", err)
			os.Exit(1)
		}
		if i > 0 {
			w.WriteString("---\n")
		}
		w.Write(data)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "genyaml:", err)
		os.Exit(1)
	}
}
