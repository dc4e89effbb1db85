"""Who may do what and who signed what: laptops' identities, the head judge's key and secret, the authority every append passes, and ``verify``."""
