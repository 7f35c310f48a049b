import { defineStore } from 'pinia'

export const useCart = defineStore('cart', {
  state: () => ({ items: [] as number[] }),
  actions: {
    add(p: { id: number }) {
      this.items.push(p.id)
    },
  },
})
