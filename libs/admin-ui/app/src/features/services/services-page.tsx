/**
 * Services of the host (`/info`): name, version, kind, health; filtered by text and kind, with the
 * filter in the URL (`?q=…&kind=…`) so a filtered list can be shared and survives a reload.
 */
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { infoApi } from '../../api/info-client';
import type { ServiceKind } from '../../api/info-types';
import { useInfoQuery } from '../../api/use-info-query';
import { ErrorMessage, Loading } from '../../components/query-state';
import { countByKind, filterServices, KINDS } from './filter-services';
import { ServicesTable } from './services-table';

export function ServicesPage() {
  const info = useInfoQuery(['host-info'], (c) => infoApi.hostInfo(c));
  const [params, setParams] = useSearchParams();
  // The text lives in local state (typing stays instant, no key lost) and is mirrored into the URL.
  const [text, setText] = useState(() => params.get('q') ?? '');
  const kindParam = params.get('kind') ?? '';
  const kind = (KINDS as readonly string[]).includes(kindParam) ? (kindParam as ServiceKind) : '';
  const services = info.data?.services;
  const shown = useMemo(() => filterServices(services ?? [], text, kind), [services, text, kind]);
  const counts = useMemo(() => countByKind(services ?? []), [services]);
  const update = (key: 'q' | 'kind', value: string) => {
    if (key === 'q') setText(value);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === '') next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  };

  if (info.isPending) return <Loading what="the services" />;
  if (info.isError) return <ErrorMessage error={info.error} what="the services (/info)" />;
  return (
    <section aria-labelledby="services-title">
      <header className="page-header">
        <h1 id="services-title">Services</h1>
        <p className="host-line">
          {info.data.name} {info.data.version}
          {info.data.description ? ` — ${info.data.description}` : ''}
        </p>
      </header>
      <div className="filters" role="search">
        <label htmlFor="service-filter">Filter</label>
        <input
          id="service-filter"
          type="search"
          placeholder="name, description, version"
          value={text}
          onChange={(e) => update('q', e.target.value)}
        />
        <label htmlFor="kind-filter">Kind</label>
        <select id="kind-filter" value={kind} onChange={(e) => update('kind', e.target.value)}>
          <option value="">all kinds ({info.data.services.length})</option>
          {KINDS.map((k) => (
            <option key={k} value={k} disabled={!counts.get(k)}>
              {k} ({counts.get(k) ?? 0})
            </option>
          ))}
        </select>
        <span className="count" aria-live="polite">
          {shown.length} of {info.data.services.length} shown
        </span>
      </div>
      {shown.length === 0 ? <p className="empty">No service matches.</p> : <ServicesTable services={shown} />}
    </section>
  );
}
