package scene

import (
	"fmt"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// imageMIMETypes are the media types an attachment's data URL may carry:
// the image formats every browser renders in a canvas. Excalidraw also
// knows bmp, ico and avif, but not all browsers decode those, so a scene
// carrying them would not render everywhere.
var imageMIMETypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml"}

// parseDataURL splits `data:<mime>;base64,<payload>` and checks that the
// media type is one of imageMIMETypes and the payload valid base64.
func parseDataURL(s string) (mime string, err error) {
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		return "", fmt.Errorf("dataURL does not start with \"data:\"")
	}
	mime, payload, ok := strings.Cut(rest, ";base64,")
	if !ok {
		return "", fmt.Errorf("dataURL is not a base64 data URL")
	}
	if !isImageMIME(mime) {
		return "", fmt.Errorf("dataURL media type %q is not one of %s", mime, strings.Join(imageMIMETypes, ", "))
	}
	if !validBase64(payload) {
		return "", fmt.Errorf("dataURL payload is not valid base64")
	}
	return mime, nil
}

func isImageMIME(m string) bool {
	for _, t := range imageMIMETypes {
		if m == t {
			return true
		}
	}
	return false
}

// validBase64 checks standard, padded base64 (what FileReader.readAsDataURL
// produces) without decoding, so checking 8 MiB allocates nothing.
func validBase64(s string) bool {
	if len(s) == 0 || len(s)%4 != 0 {
		return false
	}
	body := strings.TrimSuffix(s, "=")
	body = strings.TrimSuffix(body, "=")
	// One table lookup per byte, eight to an iteration: images are
	// megabytes of this.
	var bad byte
	i := 0
	for ; i+8 <= len(body); i += 8 {
		b := body[i : i+8]
		bad |= notBase64[b[0]] | notBase64[b[1]] | notBase64[b[2]] | notBase64[b[3]] |
			notBase64[b[4]] | notBase64[b[5]] | notBase64[b[6]] | notBase64[b[7]]
	}
	for ; i < len(body); i++ {
		bad |= notBase64[body[i]]
	}
	return bad == 0
}

// notBase64 is 1 for the bytes outside the standard base64 alphabet.
var notBase64 = func() (t [256]byte) {
	for c := range t {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			t[c] = 1
		}
	}
	return t
}()

// checkAttachment checks one member of `files`: it must be an object whose
// id equals its key, whose dataURL is an image data URL and whose mimeType
// agrees with it. It returns the data URL's length (for the size limit)
// and the first problem found, "" if none.
func checkAttachment(key string, v any) (urlLen int64, problem string) {
	f, ok := v.(*ojson.Object)
	if !ok || f == nil {
		return 0, "attachment is not an object"
	}
	url, ok := f.String("dataURL")
	if !ok {
		return 0, "attachment has no dataURL string"
	}
	urlLen = int64(len(url))
	id, ok := f.String("id")
	if !ok {
		return urlLen, "attachment has no id string"
	}
	if id != key {
		return urlLen, fmt.Sprintf("attachment id %q differs from its key %q", id, key)
	}
	mime, err := parseDataURL(url)
	if err != nil {
		return urlLen, err.Error()
	}
	declared, ok := f.String("mimeType")
	if !ok {
		return urlLen, "attachment has no mimeType string"
	}
	if declared != mime {
		return urlLen, fmt.Sprintf("mimeType %q disagrees with the dataURL's %q", declared, mime)
	}
	return urlLen, ""
}
