/** @jest-environment jsdom */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { DataTable, type Column } from '../src/components/data-table';

interface Fruit {
  name: string;
  count: number;
}

const COLUMNS: Column<Fruit>[] = [
  { header: 'Fruit', rowHeader: true, cell: (f) => f.name },
  { header: 'Count', className: 'num', cell: (f) => f.count, cellProps: (f) => ({ title: `${f.count} in stock` }) },
];

const PAGE = { page: 0, size: 2, totalElements: 3, totalPages: 2 };

describe('DataTable', () => {
  it('says what is loading until the rows come, and nothing while the read has failed', () => {
    const props = { label: 'Fruit', columns: COLUMNS, rows: undefined, rowKey: (f: Fruit) => f.name, empty: 'None.' };
    const { rerender } = render(<DataTable {...props} loading="the fruit" />);
    expect(screen.getByRole('status').textContent).toBe('Loading the fruit…');
    rerender(<DataTable {...props} loading="the fruit" error={new Error('down')} />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says the empty sentence when there is no row', () => {
    render(<DataTable label="Fruit" columns={COLUMNS} rows={[]} rowKey={(f) => f.name} empty="No fruit yet." />);
    expect(screen.getByText('No fruit yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('draws the rows under their column headers, with row headers, cell classes and attributes', () => {
    render(
      <DataTable
        label="Fruit"
        columns={COLUMNS}
        rows={[
          { name: 'apple', count: 3 },
          { name: 'pear', count: 0 },
        ]}
        rowKey={(f) => f.name}
        empty="None."
      />,
    );
    const table = screen.getByRole('table', { name: 'Fruit' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Fruit', 'Count']);
    const apple = within(table).getByRole('rowheader', { name: 'apple' }).closest('tr')!;
    const count = within(apple).getByRole('cell');
    expect([count.textContent, count.className, count.title]).toEqual(['3', 'num', '3 in stock']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('turns pages with the pagination below the table', () => {
    const pages: number[] = [];
    render(
      <DataTable
        label="Fruit"
        columns={COLUMNS}
        rows={[{ name: 'apple', count: 3 }]}
        rowKey={(f) => f.name}
        empty="None."
        pagination={{ label: 'Fruit', page: PAGE, onPage: (p) => pages.push(p) }}
      />,
    );
    const nav = screen.getByRole('navigation', { name: 'Fruit pages' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Next page' }));
    expect(pages).toEqual([1]);
  });
});
