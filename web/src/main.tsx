import { createRoot } from 'react-dom/client';

function App() {
  return <main>Arbor</main>;
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
