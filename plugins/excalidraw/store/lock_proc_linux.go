package store

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// procScope identifies the space in which this process's pid means
// something: this boot of this machine and this pid namespace. Two lock
// records with the same hostname but another scope (a reboot, another
// container, another machine with the same name) cannot be judged by pid.
// "" if /proc does not tell.
func procScope() string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(boot)) + ":" + ns
}

// procStart reports on the process pid in this pid namespace: its start time
// (field 22 of /proc/<pid>/stat, clock ticks since boot), which with the pid
// identifies one process for the life of the boot; or that it has exited (no
// such process, or a zombie, which holds nothing); or procUnknown if /proc
// cannot be read (it may hide other users' processes).
func procStart(pid int) (string, procState) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if os.IsNotExist(err) && procVisible() {
			return "", procGone
		}
		return "", procUnknown
	}
	// The command name (field 2) is in parentheses and may contain anything.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return "", procUnknown
	}
	f := strings.Fields(string(data[i+1:])) // f[0] is field 3, the state
	if len(f) < 20 {
		return "", procUnknown
	}
	if f[0] == "Z" || f[0] == "X" {
		return "", procGone
	}
	return f[19], procRunning
}

// procVisible reports whether /proc shows every process, so that a missing
// /proc/<pid> means the process does not exist: pid 1 is visible unless
// /proc hides processes of other users (hidepid).
func procVisible() bool {
	_, err := os.Stat("/proc/1/stat")
	return err == nil
}
