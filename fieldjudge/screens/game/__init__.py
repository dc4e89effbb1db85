"""The live game screen of a field judge: the screen, its actions and widgets."""
