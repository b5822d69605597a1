import { lazy } from './lazy';

export = lazy('ssh2', false);
