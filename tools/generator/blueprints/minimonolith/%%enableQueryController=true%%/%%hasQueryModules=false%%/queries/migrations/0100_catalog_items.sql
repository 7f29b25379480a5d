-- Sample data for the named query `catalog-items` of {{monolith}}: replace it with your own tables.
create table catalog_items (
  id integer primary key,
  name text not null,
  category text not null,
  price numeric(10, 2) not null
);
insert into catalog_items (id, name, category, price) values
  (1, 'Desk lamp', 'lighting', 24.90),
  (2, 'Floor lamp', 'lighting', 89.00),
  (3, 'Oak desk', 'furniture', 349.00),
  (4, 'Office chair', 'furniture', 199.50),
  (5, 'Cable tray', 'accessories', 15.00);
