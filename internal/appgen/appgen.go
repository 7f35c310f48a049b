// Package appgen generates the source tree of a realistic application of
// the framework, for benchmarks: pages and components as .vue files
// (<script setup lang="ts"> and a template), composables, utils, plugins,
// middleware, stores and server routes as .ts files, 1-4 KB each. About
// half the files are .vue, and about a third of the pages and a fifth of
// the components call a data composable, as real apps do: most components
// only take props and render. The output is the same for the same
// arguments.
package appgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Files returns n files by slash-separated path, relative to the project
// root, in layout B (sources at the root), without the config.
func Files(n int) map[string][]byte {
	r := rand.New(rand.NewPCG(uint64(n), 42))
	files := make(map[string][]byte, n)
	for i := 0; i < n; i++ {
		var name, text string
		switch k := i % 20; {
		case k < 3:
			name, text = fmt.Sprintf("pages/section%d/[id]-%d.vue", i%17, i), page(r, i)
		case k < 10:
			name, text = fmt.Sprintf("components/group%d/Widget%d.vue", i%23, i), component(r, i)
		case k < 12:
			name, text = fmt.Sprintf("composables/useThing%d.ts", i), composable(r, i)
		case k < 14:
			name, text = fmt.Sprintf("utils/format%d.ts", i), util(r, i)
		case k == 14:
			name, text = fmt.Sprintf("plugins/plugin%d.ts", i), plugin(r, i)
		case k == 15:
			name, text = fmt.Sprintf("middleware/guard%d.ts", i), middleware(r, i)
		case k == 16:
			name, text = fmt.Sprintf("stores/store%d.ts", i), store(r, i)
		default:
			name, text = fmt.Sprintf("server/api/things%d/[id].get.ts", i), serverRoute(r, i)
		}
		files[name] = []byte(pad(r, text, name))
	}
	return files
}

// pad grows a file to 1-4 KB with more of the same kind of code.
func pad(r *rand.Rand, text, name string) string {
	want := 1024 + r.IntN(3072)
	if len(text) >= want {
		return text
	}
	var extra strings.Builder
	for j := 0; len(text)+extra.Len() < want; j++ {
		if strings.HasSuffix(name, ".vue") {
			fmt.Fprintf(&extra, "\nfunction helper%d(items: Array<{ id: number; label: string }>, q = '') {\n  const needle = q.trim().toLowerCase()\n  return items\n    .filter((it) => !needle || it.label.toLowerCase().includes(needle))\n    .map((it, i) => ({ ...it, rank: i + %d }))\n}\n", j, j)
		} else {
			fmt.Fprintf(&extra, "\nexport function part%d(values: number[], scale = %d): number {\n  let total = 0\n  for (const v of values) {\n    total += v > 0 ? v * scale : -v / scale\n  }\n  return Math.round(total * 100) / 100\n}\n", j, j+1)
		}
	}
	if strings.HasSuffix(name, ".vue") {
		// Into the script block, before its end.
		return strings.Replace(text, "</script>", extra.String()+"</script>", 1)
	}
	return text + extra.String()
}

func page(r *rand.Rand, i int) string {
	data := r.IntN(3) == 0
	var b strings.Builder
	b.WriteString("<script setup lang=\"ts\">\nimport { computed, ref } from 'vue'\nimport type { Thing } from '~/types'\n\n")
	b.WriteString("const route = useRoute()\nconst id = computed(() => String(route.params.id))\n")
	if data {
		fmt.Fprintf(&b, "const { data: thing, pending, refresh, error } = await useFetch<Thing>(() => `/api/things%d/${id.value}`, {\n  key: `thing-%d-${id.value}`,\n})\n", i, i)
	} else {
		b.WriteString("const thing = ref<Thing | null>(null)\nconst pending = ref(false)\nconst error = ref<Error | null>(null)\nasync function refresh() {\n  pending.value = true\n  try {\n    thing.value = await $fetch<Thing>(`/api/things/${id.value}`)\n  } catch (e) {\n    error.value = e as Error\n  } finally {\n    pending.value = false\n  }\n}\nonMounted(refresh)\n")
	}
	fmt.Fprintf(&b, "const title = computed(() => thing.value?.name ?? 'Thing %d')\nuseHead({ title })\n\nfunction onSave(next: Partial<Thing>) {\n  emitSave(next)\n  return refresh()\n}\nfunction emitSave(next: Partial<Thing>) {\n  console.info('save', id.value, Object.keys(next).length)\n}\n</script>\n\n", i)
	fmt.Fprintf(&b, `<template>
  <main class="page-%d">
    <header>
      <h1>{{ title }}</h1>
      <button :disabled="pending" @click="refresh()">Reload</button>
    </header>
    <p v-if="error" class="error">{{ error.message }}</p>
    <section v-else-if="thing">
      <ThingCard :thing="thing" @save="onSave" />
      <ul>
        <li v-for="(tag, n) in thing.tags" :key="tag">{{ n + 1 }}. {{ tag }}</li>
      </ul>
    </section>
    <p v-else>Nothing here.</p>
    <FwLink :to="{ path: '/', query: { from: id } }">Back</FwLink>
  </main>
</template>

<style scoped>
.page-%d { display: grid; gap: 1rem; }
.error { color: crimson; }
</style>
`, i, i)
	return b.String()
}

func component(r *rand.Rand, i int) string {
	data := r.IntN(5) == 0
	var b strings.Builder
	fmt.Fprintf(&b, "<script setup lang=\"ts\">\nimport { computed, ref, watch } from 'vue'\n\nconst props = withDefaults(defineProps<{ label: string; items?: string[]; open?: boolean }>(), {\n  items: () => [],\n  open: false,\n})\nconst emit = defineEmits<{ (e: 'select', value: string): void; (e: 'close'): void }>()\nconst query = ref('')\nconst shown = computed(() => props.items.filter((x) => x.toLowerCase().includes(query.value.toLowerCase())))\nwatch(() => props.open, (open) => {\n  if (!open) query.value = ''\n})\n")
	if data {
		fmt.Fprintf(&b, "const { data: extra } = await useAsyncData('widget-%d', () => $fetch<string[]>('/api/extra/%d'), { default: () => [] })\n", i, i)
	}
	b.WriteString("function choose(value: string) {\n  emit('select', value)\n  if (props.open) emit('close')\n}\n</script>\n\n")
	fmt.Fprintf(&b, `<template>
  <div class="widget widget-%d" :class="{ open: props.open }">
    <label :for="'q-%d'">{{ props.label }}</label>
    <input :id="'q-%d'" v-model="query" type="search" placeholder="Filter">
    <ul v-show="props.open">
      <li v-for="item in shown" :key="item" @click="choose(item)">
        <slot name="item" :item="item">{{ item }}</slot>
      </li>
    </ul>
    <small v-if="!shown.length">No match for "{{ query }}"</small>
  </div>
</template>

<style scoped>
.widget-%d { position: relative; }
.widget-%d ul { list-style: none; margin: 0; padding: 0; }
</style>
`, i, i, i, i, i)
	return b.String()
}

func composable(r *rand.Rand, i int) string {
	if r.IntN(2) == 0 {
		return fmt.Sprintf(`import type { Ref } from 'vue'

export interface Thing%d { id: string; name: string; tags: string[]; updatedAt: number }

export function useThing%d(id: Ref<string>) {
  return useAsyncData(`+"`thing%d-${id.value}`"+`, () => $fetch<Thing%d>(`+"`/api/things%d/${id.value}`"+`), {
    watch: [id],
    default: () => null,
  })
}

export function sortThings%d(list: Thing%d[], by: keyof Thing%d = 'name'): Thing%d[] {
  return [...list].sort((a, b) => String(a[by]).localeCompare(String(b[by])))
}
`, i, i, i, i, i, i, i, i, i)
	}
	return fmt.Sprintf(`import { computed, ref } from 'vue'

export function useCounter%d(start = 0, step = 1) {
  const count = ref(start)
  const double = computed(() => count.value * 2)
  function inc() { count.value += step }
  function dec() { count.value -= step }
  function reset() { count.value = start }
  return { count, double, inc, dec, reset }
}

export const useToggle%d = (initial = false) => {
  const on = useState<boolean>('toggle-%d', () => initial)
  return { on, toggle: () => { on.value = !on.value } }
}
`, i, i, i)
}

func util(r *rand.Rand, i int) string {
	return fmt.Sprintf(`const units = ['B', 'KB', 'MB', 'GB'] as const

export function formatBytes%d(n: number, digits = %d): string {
  let i = 0
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return n.toFixed(digits) + ' ' + units[i]
}

export function slugify%d(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export const clamp%d = (v: number, lo = 0, hi = 1): number => Math.min(hi, Math.max(lo, v))
`, i, r.IntN(3), i, i)
}

func plugin(r *rand.Rand, i int) string {
	return fmt.Sprintf(`export default defineFwPlugin((fwApp) => {
  const started = Date.now()
  fwApp.hook('page:finish', () => {
    const ms = Date.now() - started
    if (ms > %d) console.warn('slow page', ms)
  })
  return {
    provide: {
      plugin%d: (name: string) => name.toUpperCase(),
    },
  }
})
`, 500+r.IntN(1000), i)
}

func middleware(r *rand.Rand, i int) string {
	return fmt.Sprintf(`export default defineFwRouteMiddleware((to, from) => {
  const user = useState<{ role: string } | null>('user')
  if (to.path.startsWith('/admin') && user.value?.role !== 'admin') {
    return navigateTo({ path: '/login', query: { next: to.fullPath, n: '%d' } })
  }
  if (from.path === to.path && %d > 3) {
    return abortNavigation()
  }
})
`, i, r.IntN(7))
}

func store(r *rand.Rand, i int) string {
	return fmt.Sprintf(`export const useStore%d = defineStore('store%d', {
  state: () => ({ items: [] as Array<{ id: number; qty: number }>, open: false }),
  getters: {
    total: (s) => s.items.reduce((t, it) => t + it.qty, 0),
  },
  actions: {
    add(id: number, qty = %d) {
      const it = this.items.find((x) => x.id === id)
      if (it) it.qty += qty
      else this.items.push({ id, qty })
    },
  },
})
`, i, i, 1+r.IntN(3))
}

func serverRoute(r *rand.Rand, i int) string {
	return fmt.Sprintf(`export default defineEventHandler(async (event) => {
  const id = getRouterParam(event, 'id')
  if (!id) {
    throw createError({ statusCode: 400, statusMessage: 'id required' })
  }
  const storage = useStorage('data')
  const thing = await storage.getItem<{ name: string }>(`+"`things%d:${id}`"+`)
  if (!thing) {
    throw createError({ statusCode: 404, data: JSON.stringify({ id, n: %d }) })
  }
  return { id, ...thing }
})
`, i, r.IntN(100))
}
