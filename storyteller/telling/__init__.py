"""What people read: the tellers' story of a game, the export context and the formats it
renders to, the pictures of the table, the template sandbox, PDF and the vault of notes."""
