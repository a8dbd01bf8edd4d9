package sesame_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// cpuTimes are the machine's CPU time counters from /proc/stat: all time,
// and the time the hypervisor gave to other machines (steal). On a shared
// virtual machine steal can take half of every core for minutes, which no
// change to Sesame can make up for, so timings report it beside them.
type cpuTimes struct{ total, steal uint64 }

// readCPUTimes reads the counters, or reports false where there is no
// /proc/stat (any system but Linux) or it cannot be read.
func readCPUTimes() (cpuTimes, bool) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return cpuTimes{}, false
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return cpuTimes{}, false
	}
	return parseCPUTimes(line)
}

// parseCPUTimes reads the first line of /proc/stat: "cpu" and then user,
// nice, system, idle, iowait, irq, softirq, steal, guest and guest_nice
// times. Guest time is counted in user time already, so it is not added.
func parseCPUTimes(line string) (cpuTimes, bool) {
	fields := strings.Fields(line)
	if len(fields) < 9 || fields[0] != "cpu" {
		return cpuTimes{}, false
	}
	var t cpuTimes
	for i, f := range fields[1:9] {
		v, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return cpuTimes{}, false
		}
		t.total += v
		if i == 7 {
			t.steal = v
		}
	}
	return t, true
}

// stealPercent is the share of CPU time stolen between two readings.
func stealPercent(before, after cpuTimes) float64 {
	if after.total <= before.total {
		return 0
	}
	return 100 * float64(after.steal-before.steal) / float64(after.total-before.total)
}

// reportSteal starts measuring steal and CPU time for b, and returns the
// function that reports them once the loop is done: the share of the
// machine's time stolen (steal-%), and the CPU time the process used per
// translation (cpu-ms/op), both processors together, which steal does not
// inflate. That function returns the CPU time per operation, 0 where it
// cannot be read.
func reportSteal(b *testing.B) func() time.Duration {
	before, ok := readCPUTimes()
	cpuBefore, cpuOK := processCPU()
	return func() (cpuPerOp time.Duration) {
		if after, ok2 := readCPUTimes(); ok && ok2 {
			b.ReportMetric(stealPercent(before, after), "steal-%")
		}
		if cpuAfter, ok2 := processCPU(); cpuOK && ok2 && b.N > 0 {
			cpuPerOp = (cpuAfter - cpuBefore) / time.Duration(b.N)
			b.ReportMetric(float64(cpuPerOp)/1e6, "cpu-ms/op")
		}
		return cpuPerOp
	}
}

func TestParseCPUTimes(t *testing.T) {
	for _, tt := range []struct {
		line string
		want cpuTimes
		ok   bool
	}{
		{"cpu  2609045 0 257824 3259434 5648 0 21366 301574 0 0\n", cpuTimes{total: 2609045 + 257824 + 3259434 + 5648 + 21366 + 301574, steal: 301574}, true},
		{"cpu 1 2 3 4 5 6 7 8", cpuTimes{total: 36, steal: 8}, true}, // older kernels end at steal
		{"cpu 1 2 3 4 5 6 7", cpuTimes{}, false},                     // no steal column
		{"cpu0 1 2 3 4 5 6 7 8 9 10", cpuTimes{}, false},             // a single CPU's line
		{"cpu 1 2 x 4 5 6 7 8", cpuTimes{}, false},
		{"", cpuTimes{}, false},
	} {
		got, ok := parseCPUTimes(tt.line)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseCPUTimes(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
	if got := stealPercent(cpuTimes{total: 100, steal: 10}, cpuTimes{total: 300, steal: 60}); got != 25 {
		t.Errorf("stealPercent = %v, want 25", got)
	}
	if got := stealPercent(cpuTimes{total: 100}, cpuTimes{total: 100}); got != 0 {
		t.Errorf("stealPercent with no time passed = %v, want 0", got)
	}
}
