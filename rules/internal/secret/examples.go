package secret

import "strings"

// The example credentials of vendors' documentation. They have the shape
// of real secrets, are copied into countless projects and tutorials, and
// grant nothing: reporting them would be noise. Each is listed with where
// it is printed.
var documentedTokens = []string{
	// GitHub's docs (OAuth apps, token formats): gho_16C7e..., and the
	// same body after ghp_, ghs_... in examples that follow them; the
	// classic 40-hex form.
	"16C7e42F292c6912E7710c838347Ae178B4a",
	"e72e16c7e42f292c6912e7710c838347ae178b4a",
	// Slack's oauth.v2.access response example.
	"xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",
	// Firebase's example web config, and the key of Google Maps' samples.
	"AIzaSyDOCAbC123dEf456GhI789jKl01-MnO",
	"AIzaSyB41DRUbKWJHPxaFjMAwdrzWzbVKartNGg",
	// Stripe's documented test keys (test keys are not reported anyway;
	// listed so that a secret-looking key holding one stays quiet too).
	"sk_test_4eC39HqLyjWDarjtT1zdp7dc",
	"sk_test_BQokikJOvBiI2HlWgH4olfQ2",
	"sk_test_26PHem9AhJZvU623DfE1x4sd",
	"pk_test_TYooMQauvdEDq54NiTphI7jx",
	"pk_test_6pRNASCoBOKtIshFeQd4XMUh",
	// AWS's documented key ID and secret key hold EXAMPLE, which
	// PlaceholderToken catches.
}

// documented reports whether s holds one of the documentation's example
// credentials.
func documented(s string) bool {
	if len(s) < 20 {
		return false
	}
	for _, d := range documentedTokens {
		if strings.Contains(s, d) {
			return true
		}
	}
	return false
}

// documentedJWT reports whether a JSON Web Token's claims are those of a
// documentation example: jwt.io's (subject 1234567890, John Doe), and the
// keys of Supabase's local development stack (issuer supabase-demo), which
// its CLI prints for every developer.
func documentedJWT(claims map[string]any) bool {
	if claims["sub"] == "1234567890" && claims["name"] == "John Doe" {
		return true
	}
	return claims["iss"] == "supabase-demo"
}

// publicToken reports whether s is a credential made to be public, or one
// that cannot reach anything that matters, whatever the key holding it
// says: Stripe's publishable and test keys (test mode moves no money),
// Clerk's publishable keys, Mapbox's public tokens, PostHog's project keys,
// Supabase's publishable keys and its anon JWT.
func publicToken(s string) bool {
	for _, p := range []string{"pk_live_", "pk_test_", "sk_test_", "rk_test_", "pk.eyJ", "phc_", "sb_publishable_"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	if role, ok := jwtRole(s); ok && role == "anon" {
		return true
	}
	return false
}
