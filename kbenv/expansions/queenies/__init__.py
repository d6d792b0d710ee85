"""The Queenie mini-expansions Capitol and Caves: their position fields (`setup`) and sides (`side`)."""
