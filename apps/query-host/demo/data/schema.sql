-- Demo schema of the query host (each tenant database gets it, then its own rows).
create table authors (
  id      integer primary key,
  name    text not null,
  country text not null
);
create table books (
  id        integer primary key,
  title     text not null,
  author_id integer not null references authors(id),
  genre     text not null,
  price     numeric(8,2) not null,
  year      integer not null,
  in_stock  boolean not null
);
