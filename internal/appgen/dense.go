package appgen

import (
	"fmt"
	"strings"
)

// Dense returns n files in which every file holds the patterns the code
// rules look for (data composables and what reads their results, route
// meta, window.__FW__, error.data, KeepAlive names): the code reader's and
// the rules' worst case, where Files is the usual one. Pages and
// components are .vue files with <script setup lang="ts"> and a template,
// composables and plugins .ts files, 1-4 KB each.
func Dense(n int) map[string][]byte {
	files := map[string][]byte{}
	for i := 0; i < n; i++ {
		var b strings.Builder
		switch i % 4 {
		case 0, 1: // a page or component
			fmt.Fprintf(&b, `<script setup lang="ts">
import { computed, ref, watch } from 'vue'
import type { Post } from '~/types'
import { useItems%d } from '~/composables/items%d'

const props = defineProps<{ id: string; filter?: string }>()
const route = useRoute()
const { data: posts, pending, refresh, error } = await useFetch<Post[]>('/api/posts', {
  query: { page: computed(() => route.query.page ?? 1) },
  immediate: true,
})
const { data: items } = useItems%d()
const selected = ref<Post | null>(null)
const visible = computed(() => (posts.value ?? []).filter((p) => !props.filter || p.title.includes(props.filter)))

watch(posts, (value, old) => {
  if (value === null) {
    console.warn('no posts', old?.length)
    return
  }
  selected.value = value.find((p) => p.id === props.id) ?? null
}, { deep: true })

async function save(p: Post) {
  await $fetch('/api/posts/' + p.id, { method: 'PUT', body: p })
  await refresh({ dedupe: true })
  items.value.list.push({ id: p.id, at: Date.now() })
}

function label(p: Post): string {
  return `+"`${p.title} (${p.tags.join(', ')})`"+`
}
</script>

<template>
  <div class="page" :class="{ busy: pending }">
    <h1>{{ route.meta.title ?? 'Posts' }}</h1>
    <p v-if="error">{{ error.message }}</p>
    <ul v-else-if="posts !== null">
      <li v-for="(p, i) in visible" :key="p.id" @click="selected = p; save(p)">
        <span :title="label(p)">{{ i + 1 }}. {{ p.title }}</span>
        <input v-model="p.title" @keyup.enter="save(p)">
      </li>
    </ul>
    <KeepAlive include="PostList,PostView">
      <component :is="selected ? 'PostView' : 'PostList'" v-bind="{ post: selected }" />
    </KeepAlive>
    <FwLink :to="{ name: 'post', params: { id: props.id } }">more</FwLink>
  </div>
</template>

<style scoped>
.page { padding: 1rem; }
</style>
`, i%50, i%50, i%50)
		case 2: // a composable
			fmt.Fprintf(&b, `import type { Ref } from 'vue'

export interface Item { id: string; at: number }

export function useItems%d(key = 'items-%d') {
  const state = useState<Item[]>(key, () => [])
  const result = useAsyncData(key, async () => {
    const res = await $fetch<{ list: Item[] }>('/api/items', { query: { key } })
    return { list: res.list.map((x) => ({ ...x, at: x.at || Date.now() })) }
  }, { server: false, default: () => ({ list: [] as Item[] }) })
  const count = computed(() => result.data.value?.list.length ?? 0)
  function add(item: Item) {
    state.value = [...state.value, item]
    result.data.value!.list.push(item)
  }
  return { ...result, count, add }
}

export const sortItems = <T extends { at: number }>(items: T[], desc = false): T[] =>
  [...items].sort((a, b) => (desc ? b.at - a.at : a.at - b.at))

export class ItemStore {
  private items = new Map<string, Item>()
  constructor(private readonly prefix: string) {}
  get size(): number { return this.items.size }
  set(id: string, item: Item): void { this.items.set(this.prefix + id, item) }
}
`, i, i)
		default: // a plugin
			fmt.Fprintf(&b, `export default defineFwPlugin((fwApp) => {
  const error = useError()
  if (error.value && typeof error.value.data === 'string') {
    const parsed = JSON.parse(error.value.data)
    console.error('plugin %d', parsed)
  }
  fwApp.hook('page:finish', () => {
    const w = window as any
    if (w.__FW__?.payload) delete w.__FW__.payload.data
  })
  const router = useRouter()
  router.beforeEach((to, from) => {
    if (to.meta.name === 'admin' && !useState('user').value) {
      return navigateTo({ path: '/login', query: { next: to.fullPath } })
    }
    if (from.path.startsWith('/old/')) {
      return to.path.replace(/^\/old\//, '/')
    }
  })
  const track = (name: string, data: Record<string, unknown> = {}) => {
    const payload = { name, at: Date.now(), ...data }
    queue.push(payload)
    if (queue.length > 20) flush()
  }
  const queue: Array<{ name: string; at: number }> = []
  function flush() {
    const batch = queue.splice(0, queue.length)
    return $fetch('/api/track', { method: 'POST', body: batch }).catch((e) => console.warn(e))
  }
  fwApp.hook('app:mounted', () => track('mounted', { version: '%d' }))
  return { provide: { version: () => '%d', track } }
})
`, i, i, i)
		}
		name := fmt.Sprintf("pages/p%d.vue", i)
		switch i % 4 {
		case 2:
			name = fmt.Sprintf("composables/items%d.ts", i)
		case 3:
			name = fmt.Sprintf("plugins/p%d.ts", i)
		}
		files[name] = []byte(b.String())
	}
	return files
}
