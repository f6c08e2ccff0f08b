// Entry of the explorer bundle (served at /): mounts the app with the dashboard's base styles and its own.
import { render } from 'preact';
import { ExplorerApp } from './app.tsx';
import '../styles.css';
import './explorer.css';

const root = document.getElementById('app');
if (root) render(<ExplorerApp />, root);
