-- The {{namespace}} query module's table and its seed rows. The file name carries the namespace
-- because migration names are recorded in one ledger (fw_schema_migrations) per database: two
-- query modules sharing a database must not both own "0001.sql". Unquoted names are stored in
-- lower case by PostgreSQL ({{namespaceConstant}}_ITEM is the table {{namespaceConstant}}_item in lower case).
create table {{namespaceConstant}}_ITEM (
  id integer primary key,
  name text not null,
  category text not null,
  price numeric(10, 2) not null,
  created_on date not null
);

insert into {{namespaceConstant}}_ITEM (id, name, category, price, created_on) values
  (1, 'Oak desk', 'furniture', 249.00, '2024-01-15'),
  (2, 'Desk lamp', 'lighting', 39.90, '2024-02-03'),
  (3, 'Office chair', 'furniture', 189.50, '2024-02-20'),
  (4, 'Floor lamp', 'lighting', 89.00, '2024-03-11'),
  (5, 'Bookshelf', 'furniture', 129.00, '2024-03-28'),
  (6, 'Monitor arm', 'accessories', 59.99, '2024-04-09'),
  (7, 'Standing desk', 'furniture', 449.00, '2024-05-02'),
  (8, 'Cable tray', 'accessories', 19.95, '2024-05-17'),
  (9, 'Pendant lamp', 'lighting', 74.50, '2024-06-06'),
  (10, 'Desk mat', 'accessories', 24.00, '2024-06-21'),
  (11, 'Filing cabinet', 'furniture', 159.00, '2024-07-08'),
  (12, '100% wool rug', 'furniture', 210.00, '2024-07-30');
