create table {{service}} (id integer primary key, name text not null);
