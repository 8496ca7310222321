import '@mantine/core/styles.css'
import '@mantine/notifications/styles.css'
import './app/app.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app.tsx'
import { i18nReady } from './i18n/i18n.ts'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')
// A Chinese console waits for its catalogue (a few kB) rather than flash English first.
void i18nReady.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
)
