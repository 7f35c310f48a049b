export default defineEventHandler(() => [
  { id: 1, name: 'Mug', price: 1200 },
  { id: 2, name: 'Shirt', price: 2500 },
])
