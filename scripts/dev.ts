import { spawn } from 'node:child_process';

/**
 * `npm run dev`: the API (tsx watch, port PORT or 3000) and Vite's dev server for the web app
 * (port WEB_PORT or 5173, open http://localhost:5173/app/), which forwards /api, /docs and /health
 * to the API. Ctrl-C stops both.
 */
const apiPort = process.env.PORT ?? '3000';
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js', '--config', 'web/vite.config.ts'], {
    stdio: 'inherit',
    env: { ...process.env, API_PORT: apiPort },
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
