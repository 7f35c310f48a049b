// Shop front: a layout-B project on framework 3, as most projects are before
// the version-4 upgrade. `fwmigrate check` reports what the upgrade changes;
// `fwmigrate apply --to=4 --dry-run` shows the migration.
import { defineFwConfig } from 'fw/config'

export default defineFwConfig({
  modules: ['@pinia/nuxt', '@fw/image'],

  css: ['~/assets/css/main.css'],

  app: {
    head: {
      title: 'Shop',
      meta: [{ name: 'description', content: 'A small shop' }],
    },
  },

  dir: {
    // the old name of the public directory
    static: 'public',
  },

  generate: {
    // pages the crawler cannot reach
    routes: ['/products/sale', '/products/new'],
  },

  runtimeConfig: {
    stripeSecret: '', // set FW_STRIPE_SECRET in production
    public: {
      apiBase: '/api',
      analyticsToken: 'ua-1234',
    },
  },

  experimental: {
    compileTemplate: true,
  },

  compatibilityDate: '2024-11-01',
})
