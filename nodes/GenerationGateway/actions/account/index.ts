import type { ResourceModule } from '../types';
import { getBalance } from './getBalance.operation';

export const account: ResourceModule = {
	value: 'account',
	name: 'Account',
	description: 'The account behind the credential',
	operations: [
		{
			value: 'getBalance',
			name: 'Get Balance',
			action: 'Get the account balance',
			description: 'Returns balance, currency, is_active, total and used as the gateway reports them',
			module: getBalance,
		},
	],
};
