"""The servers: their list and detail, the consent matrix of who sees what, confinement, Learn, refusals granted in one click, and the policy for unknown servers."""
