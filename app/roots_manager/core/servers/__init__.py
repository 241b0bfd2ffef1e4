"""The servers Roots Manager knows: what it keeps of each, what a name may hold and which names
look alike, and a server's command line."""
