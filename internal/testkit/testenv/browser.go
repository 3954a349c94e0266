package testenv

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// BrowserOptions are the flags tests start headless Chromium with: the
// browser at exe, no sandbox (CI runs as root, where Chromium's sandbox
// cannot start), nothing it would fetch on its own, a 1280×800 window.
func BrowserOptions(exe string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.WindowSize(1280, 800),
	)
}

// Browser starts headless Chromium (see Chromium and BrowserOptions) and
// returns a tab's context; the browser ends with the test.
func Browser(t testing.TB) context.Context {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), BrowserOptions(Chromium(t))...)
	tab, cancelTab := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	return tab
}
