"""Whether the server could take moves: a heartbeat that the processes serving the API
write, and the outages read from its gaps, which the game clocks give back to players."""
