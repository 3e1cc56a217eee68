"""ora-solve: rules engines and search for Ora et Labora."""
