"""Linux: the kernel's change notices (inotify) as a descriptor, the mount table's changes, and
two files swapped in one step."""
