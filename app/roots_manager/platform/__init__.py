"""Code for one operating system at a time, with no decisions of the product in it."""
