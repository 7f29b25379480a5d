-- Rows of tenant "acme": a different, smaller catalogue in its own database.
insert into authors (id, name, country) values
  (1, 'Jane Austen', 'UK'),
  (2, 'Mary Shelley', 'UK'),
  (3, 'Herman Melville', 'US');
insert into books (id, title, author_id, genre, price, year, in_stock) values
  (1, 'Pride and Prejudice', 1, 'classic', 6.99, 1813, true),
  (2, 'Emma', 1, 'classic', 7.49, 1815, true),
  (3, 'Persuasion', 1, 'classic', 6.50, 1817, false),
  (4, 'Frankenstein', 2, 'gothic', 5.99, 1818, true),
  (5, 'The Last Man', 2, 'scifi', 8.25, 1826, true),
  (6, 'Moby-Dick', 3, 'classic', 9.99, 1851, true),
  (7, 'Bartleby, the Scrivener', 3, 'classic', 3.99, 1853, true);
