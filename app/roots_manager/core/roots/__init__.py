"""The roots: the folders the user keeps, what a folder must be to become one (not too broad,
known by its identity rather than its spelling), their ``file://`` URIs, and the projects found
under a folder to offer as roots."""
