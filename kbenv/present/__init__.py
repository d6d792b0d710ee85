"""What people read and see: decision words (`words`), explanations (`explain`), the seat's view (`view`),
the text board (`text`), the picture (`image`) and the seat colours (`colours`)."""
