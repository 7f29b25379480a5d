/** Entry point: the router's base is the document's `<base href>` (`/` when the admin server serves it). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/app';
import './styles.css';

const basename = new URL(document.baseURI).pathname.replace(/\/$/, '') || '/';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <BrowserRouter basename={basename}>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
