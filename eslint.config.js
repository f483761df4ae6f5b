import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // A refusal a client should read carries a code from the catalog's table: its class extends
    // CodedError (server/errors/coded-error.ts), so an unmapped code does not compile.
    files: ['server/**/*.ts'],
    ignores: ['server/errors/**', '**/*.test.ts', '**/test-support/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "ClassDeclaration[superClass][superClass.name!='CodedError'] > ClassBody > PropertyDefinition[key.name='code']",
          "ClassDeclaration[superClass][superClass.name!='CodedError'] > ClassBody > MethodDefinition[kind='constructor'] TSParameterProperty[parameter.name='code']",
          "ClassDeclaration[superClass][superClass.name!='CodedError'] > ClassBody > MethodDefinition[kind='constructor'] TSParameterProperty[parameter.left.name='code']",
        ].map((selector) => ({
          selector,
          message:
            'An error with a code extends CodedError (server/errors/coded-error.ts), so its code is mapped for clients.',
        })),
      ],
    },
  },
  {
    files: ['web/**/*.tsx', 'web/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
