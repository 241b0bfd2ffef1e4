"""Windows: the per-user folder's access list, command lines as Windows reads them, job objects."""
