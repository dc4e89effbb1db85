"""The venue: Syncthing, its conflict copies, and merging another laptop's folder or export."""
