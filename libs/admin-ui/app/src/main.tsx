import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ConnectionProvider } from './api/connection-context';
import { App } from './app';
import { ThemeProvider } from './features/theme/theme';
import './styles.css';

/** The path the UI is served under, from the <base href> the router writes (`/fw/admin`). */
function basename(): string {
  return new URL(document.baseURI).pathname.replace(/\/+$/, '') || '/';
}

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <ConnectionProvider>
        <ThemeProvider>
          <BrowserRouter basename={basename()}>
            <App />
          </BrowserRouter>
        </ThemeProvider>
      </ConnectionProvider>
    </QueryClientProvider>
  </StrictMode>,
);
