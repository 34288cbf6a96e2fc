package deps
import (
 _ "github.com/redis/go-redis/v9"
 _ "github.com/testcontainers/testcontainers-go"
 _ "github.com/testcontainers/testcontainers-go/modules/redis"
 _ "github.com/stretchr/testify/require"
 _ "github.com/charmbracelet/bubbletea"
 _ "github.com/charmbracelet/bubbles/textinput"
 _ "github.com/charmbracelet/lipgloss"
 _ "golang.org/x/time/rate"
)
