/**
 * Name transforms shared by path placeholders and templates: `orders-app`, `ordersApp`,
 * `orders_app` and `Orders App` are the same name in different cases.
 */
function words(value: string): string[] {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const upperFirst = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** `orders-app` → `OrdersApp` */
export function pascalCase(value: string): string {
  return words(value).map(upperFirst).join('');
}

/** `orders-app` → `ordersApp` */
export function camelCase(value: string): string {
  const p = pascalCase(value);
  return p.charAt(0).toLowerCase() + p.slice(1);
}

/** `OrdersApp` → `orders-app` */
export function kebabCase(value: string): string {
  return words(value).join('-');
}

/** `OrdersApp` → `ORDERS_APP` */
export function constantCase(value: string): string {
  return words(value).join('_').toUpperCase();
}
