"""Linux: the kernel's change notices (inotify) as a descriptor."""
