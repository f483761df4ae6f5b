import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@xyflow/react/dist/style.css';
import './theme/tokens.css';
import './styles.css';
import { App } from './app/App';
import { applyTheme, storedTheme } from './theme/theme';

// The remembered theme before the first render, so the page does not flash the other one.
applyTheme(storedTheme());

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
