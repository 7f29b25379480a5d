/** The shell: header (host field, theme), navigation, the key prompt and the routes of every view. */
import { NavLink, Route, Routes } from 'react-router';
import { ApiDocsPage } from './features/api-docs/api-docs-page';
import { BaseUrlField } from './features/connection/base-url-field';
import { KeyPrompt } from './features/connection/key-prompt';
import { EcosystemPage, useCatalog } from './features/ecosystem/ecosystem-page';
import { ServicePage } from './features/service-detail/service-page';
import { ServicesPage } from './features/services/services-page';
import { ThemeSwitch } from './features/theme/theme';

function Navigation() {
  // The ecosystem view exists only on a host that runs the service registry.
  const catalog = useCatalog();
  return (
    <nav className="main-nav" aria-label="Main">
      <NavLink to="/" end>
        Services
      </NavLink>
      {catalog.isSuccess && <NavLink to="/ecosystem">Ecosystem</NavLink>}
      <NavLink to="/api-docs">API docs</NavLink>
    </nav>
  );
}

export function App() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <span className="brand">fw admin</span>
        <Navigation />
        <BaseUrlField />
        <ThemeSwitch />
      </header>
      <KeyPrompt />
      <main id="main" tabIndex={-1}>
        <Routes>
          <Route path="/" element={<ServicesPage />} />
          <Route path="/services/:svc" element={<ServicePage />} />
          <Route path="/services/:svc/:tab" element={<ServicePage />} />
          <Route path="/ecosystem" element={<EcosystemPage />} />
          <Route path="/api-docs" element={<ApiDocsPage />} />
          <Route
            path="*"
            element={
              <p role="alert">
                No such view. <NavLink to="/">Back to the services</NavLink>
              </p>
            }
          />
        </Routes>
      </main>
    </>
  );
}
