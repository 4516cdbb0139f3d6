import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register this itself.
afterEach(cleanup);

// jsdom lays nothing out, so it has no scrolling: forms bring fields and messages into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
