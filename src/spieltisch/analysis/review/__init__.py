"""Game reviews: what each decision of a finished game cost, and how lucky each roll was."""
