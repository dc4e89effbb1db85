"""The head judge's screens: protocol and signatures, standings and exports, merging laptops."""
