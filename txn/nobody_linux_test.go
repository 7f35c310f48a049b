package txn

import "syscall"

// nobodyAttr starts a process as the user and group nobody, with no
// supplementary groups.
func nobodyAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}}
}
