"""The engine's side of the GTP-like protocol (SPEC section 1), independent of any game."""
