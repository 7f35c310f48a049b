package compat

import "testing"

func TestComponentName(t *testing.T) {
	for _, c := range []struct {
		prefix     string
		pathPrefix bool
		dir, file  string
		want       string
	}{
		{"", true, "", "Button.vue", "Button"},
		{"", true, "base", "Button.vue", "BaseButton"},
		{"", true, "base", "BaseButton.vue", "BaseButton"},
		{"", true, "base", "base-button.vue", "BaseButton"},
		{"", true, "form/inputs", "TextField.vue", "FormInputsTextField"},
		{"", true, "form/inputs", "InputsText.vue", "FormInputsText"},
		{"", true, "base", "index.vue", "Base"},
		{"", false, "base", "index.vue", "Base"},
		{"", false, "base", "Button.vue", "Button"},
		{"Ui", true, "", "Button.vue", "UiButton"},
		{"Ui", true, "", "UiButton.vue", "UiButton"},
		{"", true, "item/item", "Item.vue", "Item"},
		{"", true, "base", "Chart.client.vue", "BaseChart"},
		{"", true, "my-ui", "Card.global.vue", "MyUiCard"},
	} {
		if got := ComponentName(c.prefix, c.pathPrefix, c.dir, c.file); got != c.want {
			t.Errorf("ComponentName(%q, %v, %q, %q) = %q, want %q", c.prefix, c.pathPrefix, c.dir, c.file, got, c.want)
		}
	}
}

func TestVueFileName(t *testing.T) {
	for file, want := range map[string]string{
		"components/base/Button.vue": "Button",
		"Chart.client.vue":           "Chart.client",
		"[id].vue":                   "[id]",
		"README":                     "",
	} {
		if got := VueFileName(file); got != want {
			t.Errorf("VueFileName(%q) = %q, want %q", file, got, want)
		}
	}
}

func TestRouteNames(t *testing.T) {
	got := RouteNames([]string{
		"index.vue", "about.vue", "blog/index.vue", "users/[id].vue", "users.vue",
		"posts/[...slug].vue", "(marketing)/pricing.vue", "shop/[[cat]]/item-[id].vue",
		"settings.vue", "settings/index.vue", "settings/profile.client.vue",
	})
	want := map[string]string{
		"index.vue": "index", "about.vue": "about", "blog/index.vue": "blog", "users/[id].vue": "users-id", "users.vue": "users",
		"posts/[...slug].vue": "posts-slug", "(marketing)/pricing.vue": "pricing", "shop/[[cat]]/item-[id].vue": "shop-cat-item-id",
		"settings/index.vue": "settings", "settings/profile.client.vue": "settings-profile",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("RouteNames: %s = %q, want %q", k, got[k], v)
		}
	}
	if n, ok := got["settings.vue"]; ok {
		t.Errorf("settings.vue has an index child and no name, got %q", n)
	}
}
