import { lazy } from './lazy';

export = lazy('langchain-tools', false);
