// Package hugeheap asks Linux, once per process, for transparent huge pages
// in the address range a Go program's heap is about to grow into, so that
// the memory a large translation touches for the first time is faulted in
// 2 MiB at a time rather than 4 KiB at a time. It is for a program's main,
// before it reads or translates much: `sesame translate` calls it, and a
// controller that translates many thousands of routes can too. The
// translation engines never do: a process's memory is its program's to
// manage.
//
// Why: a translation's output is large and new (10,000 HTTPRoutes make
// about 120 MB of Envoy messages and model, 100,000 about 1.3 GB), and
// where the kernel gives huge pages only to memory that asks for them (the
// "madvise" mode, the default of many distributions) every 4 KiB of it
// costs a page fault on first touch, and a TLB entry after. On the 2-core
// virtual machine Sesame is measured on a fault costs about 10
// microseconds: in-process, BenchmarkTranslate at 100,000 routes took
// 4.6-4.7 s without and 3.4-4.2 s with the advice, and the first three
// translations of 10,000 routes in a fresh process 361 against 161 ms
// each (README, Performance). Go's runtime
// does not ask for huge pages for its heap itself, and no maintained
// library does this, so it is written here.
//
// How: Advise has the runtime map a range of the size asked for with one
// allocation it never touches, marks the range with
// madvise(MADV_HUGEPAGE), and frees it at once with a collection; the
// heap's page allocator hands out the lowest free addresses first, so the
// objects allocated next land in the range. Nothing is done, and Advise
// returns 0, where the kernel is not Linux, where huge pages are "always"
// given (unasked) or "never", under strict overcommit accounting (which
// would charge the whole range), with GODEBUG=disablethp=1 (Go's own
// switch against huge pages for the heap), and after a first call. The
// range is address space, not memory: pages of it that are never touched
// take none. It is kept between MinSize and a quarter of the machine's
// memory (and MaxSize).
//
// What it costs: a collection, and memory rounded up to 2 MiB where the
// heap touches part of a huge page. A long-running program whose heap
// shrinks gives memory back a 4 KiB page at a time, as before; the kernel
// then splits the huge pages concerned.
package hugeheap
