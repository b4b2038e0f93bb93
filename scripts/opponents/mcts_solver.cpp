// mcts_solver: a stand-alone opponent for strength benchmarks (issue 14), not part of the
// installed Python package.
//
// A GTP engine (SPEC section 1) playing Clobber (1x1 to 26x26, default 10x10), Breakthrough
// (2..26 columns x 5..26 rows, default 8x8) and Lines of Action (8x8, Olympiad rules with
// SPEC 2.1's decisions: pass only without another move, simultaneous connection a draw, a
// capture that connects the opponent loses, third repetition a draw).
//
// Search: UCT with uniformly random playouts and the MCTS-solver of Winands, Bjornsson and
// Saito (2008): a node whose child is a proven win for the side to move is a proven win, a node
// whose children are all proven losses is a proven loss; proven losses are never selected, and
// a proven win at the root ends the search. The tree is built afresh for every move.
//
// Rules inside the search: exact for Clobber and Breakthrough. In LOA the tree applies the
// repetition rule along its own path (with the game's history), but random playouts ignore
// it and count as a draw after PLAYOUT_CAP plies.
//
// Flags: --sims N (fixed simulations per move, reproducible with --seed), --seed N,
// --rate N (at most N simulations per second of the move's allowance: a slower program's
// strength on any machine at least that fast; --rate 7000 is issue 14's opponent),
// --move-time S (per move when no clock is set), --time-fraction F (share of the remaining
// main time per move), --uct-c C, --max-nodes N, --verbose (one line per move on stderr),
// --bench [SECONDS] (simulations per second from each game's start position, then exit).
//
// Build: scripts/opponents/build.sh (g++ -O2 -std=c++17, no dependencies).

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

using Move = uint32_t;
constexpr Move PASS = 0xFFFFFFFFu;
constexpr int BLACK = 0, WHITE = 1;
constexpr int ONGOING = -1, DRAW = 2;  // an outcome: ONGOING, BLACK or WHITE (the winner), DRAW
constexpr int MAX_SIDE = 26;
constexpr int MAX_CELLS = MAX_SIDE * MAX_SIDE;
constexpr int PLAYOUT_CAP = 300;  // LOA playouts longer than this count as draws

const char* const COLOUR_NAME[2] = {"black", "white"};

inline Move make_move(int from, int to) { return static_cast<Move>(from) << 10 | to; }
inline int move_from(Move m) { return static_cast<int>(m >> 10); }
inline int move_to(Move m) { return static_cast<int>(m & 1023); }

double now() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// xoshiro256** seeded by splitmix64: fast, and reproducible for a given seed.
struct Rng {
    uint64_t s[4];
    explicit Rng(uint64_t seed = 1) { reseed(seed); }
    void reseed(uint64_t seed) {
        for (auto& word : s) {
            seed += 0x9e3779b97f4a7c15ull;
            uint64_t z = seed;
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
            word = z ^ (z >> 31);
        }
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t next() {
        uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
        return result;
    }
    uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
};

// --- squares and move texts (SPEC 1.4) -------------------------------------------------------

std::string square_name(int square, int cols) {
    return std::string(1, static_cast<char>('a' + square % cols)) +
           std::to_string(square / cols + 1);
}

std::string from_to_text(int from, int to, bool capture, int cols) {
    return square_name(from, cols) + (capture ? "x" : "-") + square_name(to, cols);
}

std::string lower(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// Reads "c3" at text[pos]: a file letter and one or two ASCII digits. Returns the square, or
// -1 (bad text) or -2 (off the board); advances pos.
int read_square(const std::string& text, size_t& pos, int cols, int rows) {
    if (pos >= text.size() || text[pos] < 'a' || text[pos] > 'z') return -1;
    int file = text[pos++] - 'a';
    int digits = 0, rank = 0;
    while (pos < text.size() && digits < 2 && text[pos] >= '0' && text[pos] <= '9') {
        rank = rank * 10 + (text[pos++] - '0');
        ++digits;
    }
    if (digits == 0) return -1;
    if (file >= cols || rank < 1 || rank > rows) return -2;
    return (rank - 1) * cols + file;
}

// Parses "b1-b3", "b1xb3" or "b1b3" (already lower case). Returns "" or an error message.
std::string parse_from_to(const std::string& text, int cols, int rows, int& from, int& to) {
    size_t pos = 0;
    from = read_square(text, pos, cols, rows);
    if (from != -1 && pos < text.size() && (text[pos] == '-' || text[pos] == 'x')) {
        // '-' or 'x' as a separator; when no square follows it, an 'x' is the file x.
        size_t after = pos + 1;
        int target = read_square(text, after, cols, rows);
        if (target != -1 && after == text.size()) {
            to = target;
            pos = after;
        } else {
            to = read_square(text, pos, cols, rows);
        }
    } else if (from != -1) {
        to = read_square(text, pos, cols, rows);
    } else {
        to = -1;
    }
    if (from == -1 || to == -1 || pos != text.size())
        return "'" + text + "' is not a move (expected two squares, like b1-b3 or b1xd3)";
    if (from == -2 || to == -2) return "'" + text + "' is off the board";
    return "";
}

std::string render(int cols, int rows, const std::vector<char>& cells, const std::string& legend) {
    int width = rows >= 10 ? 2 : 1;
    std::string files(width + 1, ' ');
    for (int f = 0; f < cols; ++f) {
        if (f) files += ' ';
        files += static_cast<char>('a' + f);
    }
    std::string out = files + "\n";
    for (int r = rows - 1; r >= 0; --r) {
        std::string label = std::to_string(r + 1);
        out += std::string(width - label.size(), ' ') + label + " ";
        for (int f = 0; f < cols; ++f) {
            if (f) out += ' ';
            out += cells[r * cols + f];
        }
        out += " " + label + "\n";
    }
    return out + files + "\n" + legend;
}

// --- Clobber (SPEC 2.4) ------------------------------------------------------------------------
// A mailbox board: cell 0 empty, 1 black, 2 white. Every move is a capture; the side to move
// with no move loses (then the opponent has none either).

struct Clobber {
    static constexpr bool kRepetition = false;
    int cols = 10, rows = 10;
    int side = BLACK;
    int over = ONGOING;  // never set: a Clobber game ends only when the side to move is stuck
    uint8_t cell[MAX_CELLS];

    static const char* name() { return "clobber"; }
    static bool size_ok(int c, int r) { return c >= 1 && c <= 26 && r >= 1 && r <= 26; }
    static std::pair<int, int> default_size() { return {10, 10}; }

    void init(int c, int r) {
        cols = c; rows = r; side = BLACK; over = ONGOING;
        for (int sq = 0; sq < cols * rows; ++sq)
            cell[sq] = ((sq / cols + sq % cols) % 2 == 0) ? 1 : 2;
    }

    template <class Out>
    void generate(Out& out) const {
        const uint8_t own = static_cast<uint8_t>(side + 1), opp = static_cast<uint8_t>(2 - side);
        const int n = cols * rows;
        for (int sq = 0; sq < n; ++sq) {
            if (cell[sq] != own) continue;
            int r = sq / cols, f = sq - r * cols;
            if (f + 1 < cols && cell[sq + 1] == opp) out.push_back(make_move(sq, sq + 1));
            if (f > 0 && cell[sq - 1] == opp) out.push_back(make_move(sq, sq - 1));
            if (r + 1 < rows && cell[sq + cols] == opp) out.push_back(make_move(sq, sq + cols));
            if (r > 0 && cell[sq - cols] == opp) out.push_back(make_move(sq, sq - cols));
        }
    }

    void apply(Move m) {
        cell[move_to(m)] = cell[move_from(m)];
        cell[move_from(m)] = 0;
        side ^= 1;
    }

    bool is_capture(Move) const { return true; }
    uint64_t key() const { return 0; }
    char mark(int sq) const { return ".XO"[cell[sq]]; }
};

// --- Breakthrough (SPEC 2.2) -------------------------------------------------------------------
// White (rank 1 side) moves up, black down; a piece steps straight or diagonally forward onto
// an empty square, or captures diagonally forward. Reaching the far rank or taking the last
// opponent piece wins.

struct Breakthrough {
    static constexpr bool kRepetition = false;
    int cols = 8, rows = 8;
    int side = WHITE;
    int over = ONGOING;
    int count[2] = {0, 0};
    uint8_t cell[MAX_CELLS];

    static const char* name() { return "breakthrough"; }
    static bool size_ok(int c, int r) { return c >= 2 && c <= 26 && r >= 5 && r <= 26; }
    static std::pair<int, int> default_size() { return {8, 8}; }

    void init(int c, int r) {
        cols = c; rows = r; side = WHITE; over = ONGOING;
        for (int sq = 0; sq < cols * rows; ++sq) {
            int rank = sq / cols;
            cell[sq] = rank < 2 ? 2 : rank >= rows - 2 ? 1 : 0;
        }
        count[BLACK] = count[WHITE] = 2 * cols;
    }

    template <class Out>
    void generate(Out& out) const {
        const uint8_t own = static_cast<uint8_t>(side + 1);
        const int step = side == WHITE ? cols : -cols;
        const int n = cols * rows;
        for (int sq = 0; sq < n; ++sq) {
            if (cell[sq] != own) continue;
            int to = sq + step;
            if (to < 0 || to >= n) continue;
            int f = sq % cols;
            if (cell[to] == 0) out.push_back(make_move(sq, to));
            if (f > 0 && cell[to - 1] != own) out.push_back(make_move(sq, to - 1));
            if (f + 1 < cols && cell[to + 1] != own) out.push_back(make_move(sq, to + 1));
        }
    }

    void apply(Move m) {
        int from = move_from(m), to = move_to(m);
        if (cell[to]) --count[side ^ 1];
        cell[to] = cell[from];
        cell[from] = 0;
        int rank = to / cols;
        bool goal = side == WHITE ? rank == rows - 1 : rank == 0;
        if (goal || count[side ^ 1] == 0) over = side;
        side ^= 1;
    }

    bool is_capture(Move m) const { return cell[move_to(m)] != 0; }
    uint64_t key() const { return 0; }
    char mark(int sq) const { return ".XO"[cell[sq]]; }
};

// --- Lines of Action (SPEC 2.1) ----------------------------------------------------------------
// Two 64-bit boards, bit rank * 8 + file. A piece moves along a line exactly as many squares as
// there are pieces on that whole line, over its own pieces but not the opponent's.

struct LoaTables {
    uint64_t line[64][4];          // the whole line through a square, per axis
    int8_t target[64][8][8];       // target at distance n in direction d, -1 off the board
    uint64_t between[64][8][8];    // squares strictly between
    LoaTables() {
        static const int df[8] = {1, -1, 0, 0, 1, -1, 1, -1};
        static const int dr[8] = {0, 0, 1, -1, 1, -1, -1, 1};
        for (int sq = 0; sq < 64; ++sq) {
            for (int a = 0; a < 4; ++a) line[sq][a] = 1ull << sq;
            for (int d = 0; d < 8; ++d) {
                uint64_t path = 0;
                target[sq][d][0] = -1;
                between[sq][d][0] = 0;
                for (int n = 1; n < 8; ++n) {
                    int f = sq % 8 + df[d] * n, r = sq / 8 + dr[d] * n;
                    if (f < 0 || f > 7 || r < 0 || r > 7) {
                        target[sq][d][n] = -1;
                        between[sq][d][n] = 0;
                        continue;
                    }
                    int t = r * 8 + f;
                    target[sq][d][n] = static_cast<int8_t>(t);
                    between[sq][d][n] = path;
                    path |= 1ull << t;
                    line[sq][d / 2] |= 1ull << t;
                }
            }
        }
    }
};
const LoaTables LOA;

constexpr uint64_t FILE_A = 0x0101010101010101ull;
constexpr uint64_t NOT_FILE_A = ~FILE_A, NOT_FILE_H = ~(FILE_A << 7);

inline uint64_t grow8(uint64_t bits) {
    uint64_t g = bits | (bits << 8) | (bits >> 8);
    return g | ((g << 1) & NOT_FILE_A) | ((g >> 1) & NOT_FILE_H);
}

inline bool connected(uint64_t bits) {
    if (!bits) return true;
    uint64_t group = bits & (~bits + 1);
    while (true) {
        uint64_t grown = grow8(group) & bits;
        if (grown == group) return group == bits;
        group = grown;
    }
}

struct Loa {
    static constexpr bool kRepetition = true;
    int cols = 8, rows = 8;
    int side = BLACK;
    int over = ONGOING;  // BLACK/WHITE: connected; DRAW: both connected by one move
    uint64_t b[2] = {0, 0};

    static const char* name() { return "loa"; }
    static bool size_ok(int c, int r) { return c == 8 && r == 8; }
    static std::pair<int, int> default_size() { return {8, 8}; }

    void init(int, int) {
        side = BLACK; over = ONGOING;
        b[BLACK] = 0x7Eull | (0x7Eull << 56);
        b[WHITE] = 0;
        for (int r = 1; r < 7; ++r) b[WHITE] |= (1ull << (r * 8)) | (1ull << (r * 8 + 7));
    }

    template <class Out>
    void generate(Out& out) const {
        const uint64_t own = b[side], opp = b[side ^ 1], occ = own | opp;
        size_t before = out.size();
        for (uint64_t rest = own; rest; rest &= rest - 1) {
            int sq = __builtin_ctzll(rest);
            for (int a = 0; a < 4; ++a) {
                int n = __builtin_popcountll(occ & LOA.line[sq][a]);
                for (int d = 2 * a; d < 2 * a + 2; ++d) {
                    int t = LOA.target[sq][d][n];
                    if (t < 0 || (own >> t & 1) || (LOA.between[sq][d][n] & opp)) continue;
                    out.push_back(make_move(sq, t));
                }
            }
        }
        if (out.size() == before) out.push_back(PASS);
    }

    void apply(Move m) {
        int mover = side;
        side ^= 1;
        if (m == PASS) return;
        int from = move_from(m), to = move_to(m);
        b[mover] ^= (1ull << from) | (1ull << to);
        bool captured = b[mover ^ 1] >> to & 1;
        if (captured) b[mover ^ 1] ^= 1ull << to;
        bool mine = connected(b[mover]);
        bool theirs = captured && connected(b[mover ^ 1]);
        if (mine && theirs) over = DRAW;
        else if (mine) over = mover;
        else if (theirs) over = mover ^ 1;
    }

    bool is_capture(Move m) const { return m != PASS && (b[side ^ 1] >> move_to(m) & 1); }
    uint64_t key() const {
        uint64_t h = b[0] * 0x9e3779b97f4a7c15ull ^
                     (b[1] + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
        return h ^ (side ? 0xd6e8feb86659fd93ull : 0);
    }
    char mark(int sq) const { return (b[0] >> sq & 1) ? 'X' : (b[1] >> sq & 1) ? 'O' : '.'; }
};

// --- a small fixed-capacity move list for playouts ----------------------------------------------

struct MoveList {
    Move items[4 * MAX_CELLS];
    size_t count = 0;
    void push_back(Move m) { items[count++] = m; }
    size_t size() const { return count; }
    void clear() { count = 0; }
};

// A uniformly random game from `state`; the winner, or DRAW.
template <class S>
int playout(S state, Rng& rng, MoveList& moves) {
    for (int ply = 0;; ++ply) {
        if (state.over != ONGOING) return state.over;
        if (S::kRepetition && ply >= PLAYOUT_CAP) return DRAW;
        moves.clear();
        state.generate(moves);
        if (moves.size() == 0) return state.side ^ 1;
        state.apply(moves.items[rng.below(static_cast<uint32_t>(moves.size()))]);
    }
}

// --- MCTS with the MCTS-solver -----------------------------------------------------------

struct SearchLimits {
    double seconds = 1.0;     // stop after this long (always applied: the clock's safety)
    long long sims = 0;       // > 0: stop after this many simulations
};

struct SearchStats {
    long long sims = 0;
    double seconds = 0;
    size_t nodes = 0;
    double value = 0.5;       // the chosen move's mean result for the side to move
    int proven = 0;           // +1 the side to move wins, -1 loses, 0 unknown
};

struct Settings {
    double uct_c = 0.7;
    size_t max_nodes = 8'000'000;
    uint32_t expand_visits = 1;  // a leaf is expanded on its visit after this many
};

template <class S>
class Mcts {
  public:
    explicit Mcts(const Settings& settings) : settings_(settings) {}

    // The move for the side to move in `root` (not over, with at least one legal move).
    // `history` counts the game's positions by S::key(), for LOA's repetition rule.
    Move search(const S& root, const std::unordered_map<uint64_t, int>& history,
                const SearchLimits& limits, Rng& rng, SearchStats& stats) {
        const double start = now();
        nodes_.clear();
        if (nodes_.capacity() < settings_.max_nodes) nodes_.reserve(settings_.max_nodes);
        nodes_.push_back(Node{});
        root_side_ = root.side;
        long long sims = 0;
        while (nodes_[0].proven == 0) {
            if (limits.sims > 0 && sims >= limits.sims) break;
            if ((sims & 31) == 0 && now() - start >= limits.seconds) break;
            iterate(root, history, rng);
            ++sims;
        }
        stats.sims = sims;
        stats.seconds = now() - start;
        stats.nodes = nodes_.size();
        return best_move(stats);
    }

  private:
    struct Node {
        Move move = 0;
        uint32_t first = 0;     // index of the first child
        uint32_t children = 0;  // 0: a leaf (not expanded yet, or terminal)
        uint32_t visits = 0;
        float wins = 0;         // for the side that played `move`
        int8_t proven = 0;      // +1 proven win, -1 proven loss, for the side that played `move`
        uint8_t drawn = 0;      // a terminal draw (LOA)
    };

    Settings settings_;
    std::vector<Node> nodes_;
    std::vector<uint32_t> path_;
    std::vector<uint64_t> keys_;
    std::vector<Move> moves_;
    MoveList playout_moves_;
    int root_side_ = BLACK;

    int mover_at(size_t depth) const { return root_side_ ^ static_cast<int>(depth & 1) ^ 1; }

    bool repeated_thrice(uint64_t key, const std::unordered_map<uint64_t, int>& history) const {
        auto found = history.find(key);
        int count = 1 + (found == history.end() ? 0 : found->second);
        for (size_t i = 0; i + 1 < keys_.size(); ++i) count += keys_[i] == key;
        return count >= 3;
    }

    uint32_t select(const Node& parent) const {
        const double log_n = std::log(static_cast<double>(parent.visits) + 1.0);
        uint32_t best = parent.first;
        double best_value = -1e300;
        for (uint32_t i = parent.first; i < parent.first + parent.children; ++i) {
            const Node& child = nodes_[i];
            if (child.proven < 0) continue;
            if (child.proven > 0 || child.visits == 0) return i;
            double value = child.wins / child.visits +
                           settings_.uct_c * std::sqrt(log_n / child.visits);
            if (value > best_value) { best_value = value; best = i; }
        }
        return best;
    }

    void iterate(const S& root, const std::unordered_map<uint64_t, int>& history, Rng& rng) {
        S state = root;
        path_.assign(1, 0);
        keys_.clear();
        int winner;
        bool newly_proven = false;
        while (true) {
            const size_t depth = path_.size() - 1;
            const uint32_t index = path_.back();
            const int mover = mover_at(depth);
            Node& node = nodes_[index];
            if (node.proven) { winner = node.proven > 0 ? mover : mover ^ 1; break; }
            if (node.drawn) { winner = DRAW; break; }
            if (node.children == 0) {
                if (state.over == BLACK || state.over == WHITE) {
                    node.proven = state.over == mover ? 1 : -1;
                    winner = state.over;
                    newly_proven = true;
                    break;
                }
                bool repeated =
                    S::kRepetition && depth > 0 && repeated_thrice(keys_.back(), history);
                if (state.over == DRAW || repeated) {
                    node.drawn = 1;
                    winner = DRAW;
                    break;
                }
                moves_.clear();
                state.generate(moves_);
                if (moves_.empty()) {  // the side to move is stuck and loses
                    node.proven = 1;
                    winner = mover;
                    newly_proven = true;
                    break;
                }
                bool expand = depth == 0 || node.visits >= settings_.expand_visits;
                if (!expand || nodes_.size() + moves_.size() > settings_.max_nodes) {
                    winner = playout(state, rng, playout_moves_);
                    break;
                }
                for (size_t i = moves_.size(); i > 1; --i)
                    std::swap(moves_[i - 1], moves_[rng.below(static_cast<uint32_t>(i))]);
                const uint32_t first = static_cast<uint32_t>(nodes_.size());
                for (Move m : moves_) {
                    Node child;
                    child.move = m;
                    nodes_.push_back(child);
                }
                nodes_[index].first = first;
                nodes_[index].children = static_cast<uint32_t>(moves_.size());
            }
            const uint32_t child = select(nodes_[index]);
            state.apply(nodes_[child].move);
            path_.push_back(child);
            if (S::kRepetition) keys_.push_back(state.key());
        }
        if (newly_proven) propagate();
        for (size_t depth = 0; depth < path_.size(); ++depth) {
            Node& node = nodes_[path_[depth]];
            ++node.visits;
            const int mover = mover_at(depth);
            if (winner == mover) node.wins += 1.0f;
            else if (winner == DRAW) node.wins += 0.5f;
        }
    }

    // The MCTS-solver's rule, from the newly proven end of the path towards the root.
    void propagate() {
        for (size_t depth = path_.size() - 1; depth > 0; --depth) {
            const Node& child = nodes_[path_[depth]];
            Node& parent = nodes_[path_[depth - 1]];
            if (parent.proven) return;
            if (child.proven > 0) {
                parent.proven = -1;  // the side to move at the parent has a winning move
            } else if (child.proven < 0) {
                for (uint32_t i = parent.first; i < parent.first + parent.children; ++i)
                    if (nodes_[i].proven >= 0) return;
                parent.proven = 1;  // every move of the side to move loses
            } else {
                return;
            }
        }
    }

    Move best_move(SearchStats& stats) const {
        const Node& root = nodes_[0];
        uint32_t best = root.first;
        int best_rank = -1;
        long long best_visits = -1;
        for (uint32_t i = root.first; i < root.first + root.children; ++i) {
            const Node& child = nodes_[i];
            int rank = child.proven > 0 ? 2 : child.proven == 0 ? 1 : 0;
            if (rank > best_rank || (rank == best_rank && child.visits > best_visits)) {
                best = i; best_rank = rank; best_visits = child.visits;
            }
        }
        const Node& chosen = nodes_[best];
        stats.value = chosen.visits ? chosen.wins / chosen.visits : 0.5;
        stats.proven = chosen.proven > 0 ? 1 : root.proven > 0 ? -1 : 0;
        return chosen.move;
    }
};

// --- one game as the protocol sees it ----------------------------------------------------

struct Clock {
    bool set = false;
    double main = 0, byo_yomi = 0;
    int stones = 0;
    double left[2] = {-1, -1};
    int left_stones[2] = {0, 0};
};

struct Options {
    long long sims = 0;
    double rate = 0;  // > 0: at most this many simulations per second of the allowance
    uint64_t seed = 0;
    double move_time = 1.0;
    double time_fraction = 0.08;
    double margin = 0.1;  // seconds kept back from every allowance
    bool verbose = false;
    Settings search;
};

class GameBase {
  public:
    virtual ~GameBase() = default;
    virtual std::string name() const = 0;
    virtual bool resize(int cols, int rows) = 0;
    virtual void clear() = 0;
    virtual int outcome() const = 0;
    virtual int side() const = 0;
    virtual std::vector<std::string> legal_texts() const = 0;
    // "" on success, else the failure message (starting with GTP's words).
    virtual std::string play(const std::string& text) = 0;
    virtual bool undo() = 0;
    virtual std::string diagram() const = 0;
    virtual std::string genmove(double seconds, const Options& options, Rng& rng) = 0;
    virtual double bench(double seconds, const Options& options, Rng& rng, long long& sims) = 0;
};

template <class S>
class Game : public GameBase {
  public:
    Game() { auto size = S::default_size(); cols_ = size.first; rows_ = size.second; clear(); }

    std::string name() const override { return S::name(); }

    bool resize(int cols, int rows) override {
        if (!S::size_ok(cols, rows)) return false;
        cols_ = cols; rows_ = rows;
        clear();
        return true;
    }

    void clear() override {
        state_.init(cols_, rows_);
        past_.clear();
        counts_.clear();
        if (S::kRepetition) counts_[state_.key()] = 1;
    }

    int outcome() const override {
        if (state_.over != ONGOING) return state_.over;
        if (S::kRepetition && counts_.at(state_.key()) >= 3) return DRAW;
        std::vector<Move> moves;
        state_.generate(moves);
        return moves.empty() ? state_.side ^ 1 : ONGOING;
    }

    int side() const override { return state_.side; }

    std::vector<std::string> legal_texts() const override {
        std::vector<std::string> texts;
        if (outcome() != ONGOING) return texts;
        std::vector<Move> moves;
        state_.generate(moves);
        for (Move m : moves) texts.push_back(text(m));
        std::sort(texts.begin(), texts.end());
        return texts;
    }

    std::string play(const std::string& raw) override {
        std::string word = lower(raw);
        std::vector<Move> moves;
        state_.generate(moves);
        Move move;
        if (word == "pass") {
            if (!(moves.size() == 1 && moves[0] == PASS))
                return "illegal move: pass: passing is only legal when no other move exists";
            move = PASS;
        } else {
            int from, to;
            std::string error = parse_from_to(word, cols_, rows_, from, to);
            if (!error.empty()) return "syntax error: " + error;
            move = make_move(from, to);
            if (std::find(moves.begin(), moves.end(), move) == moves.end())
                return "illegal move: " + word + ": not a legal move for " +
                       COLOUR_NAME[state_.side];
        }
        push(move);
        return "";
    }

    bool undo() override {
        if (past_.empty()) return false;
        if (S::kRepetition && --counts_[state_.key()] == 0) counts_.erase(state_.key());
        state_ = past_.back();
        past_.pop_back();
        return true;
    }

    std::string diagram() const override {
        std::vector<char> cells(cols_ * rows_);
        for (int sq = 0; sq < cols_ * rows_; ++sq) cells[sq] = state_.mark(sq);
        return render(cols_, rows_, cells,
                      std::string("X black, O white; ") + COLOUR_NAME[state_.side] + " to move");
    }

    std::string genmove(double seconds, const Options& options, Rng& rng) override {
        std::vector<Move> moves;
        state_.generate(moves);
        Move move = moves[0];
        SearchStats stats;
        if (moves.size() > 1) {
            SearchLimits limits;
            limits.seconds = seconds;
            limits.sims = options.sims;
            if (options.rate > 0) {
                long long cap = std::max(1LL, static_cast<long long>(options.rate * seconds));
                limits.sims = limits.sims > 0 ? std::min(limits.sims, cap) : cap;
            }
            Mcts<S> mcts(options.search);
            move = mcts.search(state_, counts_, limits, rng, stats);
        }
        std::string chosen = text(move);
        if (options.verbose)
            std::fprintf(stderr, "%s %s: %lld sims in %.2f s (%.0f/s), %zu nodes, value %.3f%s\n",
                         COLOUR_NAME[state_.side], chosen.c_str(), stats.sims, stats.seconds,
                         stats.seconds > 0 ? stats.sims / stats.seconds : 0.0, stats.nodes,
                         stats.value,
                         stats.proven > 0 ? " (proven win)"
                         : stats.proven < 0 ? " (proven loss)" : "");
        push(move);
        return chosen;
    }

    double bench(double seconds, const Options& options, Rng& rng, long long& sims) override {
        SearchLimits limits;
        limits.seconds = seconds;
        SearchStats stats;
        Mcts<S> mcts(options.search);
        mcts.search(state_, counts_, limits, rng, stats);
        sims = stats.sims;
        return stats.seconds;
    }

  private:
    S state_;
    std::vector<S> past_;
    std::unordered_map<uint64_t, int> counts_;  // LOA: positions of this game by key
    int cols_ = 8, rows_ = 8;

    std::string text(Move m) const {
        if (m == PASS) return "pass";
        return from_to_text(move_from(m), move_to(m), state_.is_capture(m), cols_);
    }

    void push(Move m) {
        past_.push_back(state_);
        state_.apply(m);
        if (S::kRepetition) ++counts_[state_.key()];
    }
};

std::unique_ptr<GameBase> make_game(const std::string& name) {
    std::string word = lower(name);
    if (word == "clobber") return std::make_unique<Game<Clobber>>();
    if (word == "breakthrough") return std::make_unique<Game<Breakthrough>>();
    if (word == "loa" || word == "lines_of_action") return std::make_unique<Game<Loa>>();
    return nullptr;
}

// --- the protocol (SPEC section 1) -------------------------------------------------------

struct Failure {
    std::string message;
};

const char* result_text(int outcome) {
    return outcome == DRAW ? "0" : outcome == BLACK ? "B+" : "W+";
}

bool is_whole(const std::string& word) {
    return !word.empty() &&
           std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool parse_number(const std::string& word, double& value) {
    size_t i = 0, digits = 0;
    if (i < word.size() && (word[i] == '+' || word[i] == '-')) ++i;
    while (i < word.size() && word[i] >= '0' && word[i] <= '9') { ++i; ++digits; }
    if (i < word.size() && word[i] == '.') {
        ++i;
        while (i < word.size() && word[i] >= '0' && word[i] <= '9') { ++i; ++digits; }
    }
    if (digits == 0 || i != word.size()) return false;
    value = std::strtod(word.c_str(), nullptr);
    return true;
}

class Engine {
  public:
    explicit Engine(const Options& options)
        : options_(options), rng_(options.seed), game_(make_game("clobber")) {}

    // The answer text; throws Failure for a failure answer. Sets quit_ for "quit".
    std::string answer(const std::string& name, const std::vector<std::string>& args) {
        if (name == "protocol_version") return "2";
        if (name == "name") return "mcts-solver";
        if (name == "version") return "1.0";
        if (name == "known_command") {
            expect(args, 1, "known_command NAME");
            return known(args[0]) ? "true" : "false";
        }
        if (name == "list_commands") {
            std::string out;
            for (const char* command : commands())
                out += std::string(out.empty() ? "" : "\n") + command;
            return out;
        }
        if (name == "quit") { quit_ = true; return ""; }
        if (name == "list_games") return "clobber\nbreakthrough\nloa";
        if (name == "set_game") return set_game(args);
        if (name == "boardsize") return boardsize(args);
        if (name == "clear_board") { game_->clear(); return ""; }
        if (name == "komi") {
            double value;
            expect(args, 1, "komi VALUE");
            if (!parse_number(args[0], value)) throw Failure{"syntax error: komi must be a number"};
            return "";
        }
        if (name == "play") return play(args);
        if (name == "genmove") return genmove(args);
        if (name == "undo") {
            if (!game_->undo()) throw Failure{"cannot undo: no move has been played"};
            return "";
        }
        if (name == "legal_moves") {
            std::string out;
            for (const auto& text : game_->legal_texts()) out += (out.empty() ? "" : " ") + text;
            return out;
        }
        if (name == "side_to_move")
            return game_->outcome() != ONGOING ? "none" : COLOUR_NAME[game_->side()];
        if (name == "final_score") {
            int outcome = game_->outcome();
            if (outcome == ONGOING) throw Failure{"cannot score: game is not over"};
            return result_text(outcome);
        }
        if (name == "showboard") {
            std::string status;
            int outcome = game_->outcome();
            if (outcome != ONGOING)
                status = std::string("\ngame over: ") + result_text(outcome);
            return "\n" + game_->diagram() + status;
        }
        if (name == "time_settings") return time_settings(args);
        if (name == "time_left") return time_left(args);
        throw Failure{"unknown command: " + name};
    }

    bool quit() const { return quit_; }

  private:
    Options options_;
    Rng rng_;
    std::unique_ptr<GameBase> game_;
    Clock clock_;
    bool quit_ = false;

    static const std::vector<const char*>& commands() {
        static const std::vector<const char*> names = {
            "boardsize", "clear_board", "final_score", "genmove", "known_command", "komi",
            "legal_moves", "list_commands", "list_games", "name", "play", "protocol_version",
            "quit", "set_game", "showboard", "side_to_move", "time_left", "time_settings", "undo",
            "version"};
        return names;
    }

    static bool known(const std::string& name) {
        for (const char* command : commands())
            if (name == command) return true;
        return false;
    }

    static void expect(const std::vector<std::string>& args, size_t count, const char* usage) {
        if (args.size() != count) throw Failure{std::string("syntax error: expected ") + usage};
    }

    static int colour(const std::string& word) {
        std::string w = lower(word);
        if (w == "b" || w == "black") return BLACK;
        if (w == "w" || w == "white") return WHITE;
        throw Failure{"syntax error: unknown colour '" + word + "' (expected black or white)"};
    }

    std::string set_game(const std::vector<std::string>& args) {
        if (args.empty()) throw Failure{"syntax error: expected a game name and KEY=VALUE options"};
        auto game = make_game(args[0]);
        if (!game)
            throw Failure{"unknown game: " + args[0] +
                          " (this engine plays clobber, breakthrough, loa)"};
        if (args.size() > 1)
            throw Failure{"syntax error: " + game->name() + " takes no options, got " + args[1]};
        game_ = std::move(game);
        return "";
    }

    std::string boardsize(const std::vector<std::string>& args) {
        if ((args.size() != 1 && args.size() != 2) || !is_whole(args[0]) ||
            !is_whole(args.back()) || args[0].size() > 4 || args.back().size() > 4)
            throw Failure{"syntax error: expected boardsize N or boardsize COLS ROWS"};
        int cols = std::stoi(args[0]), rows = std::stoi(args.back());
        if (!game_->resize(cols, rows))
            throw Failure{"unacceptable size: " + std::to_string(cols) + "x" +
                          std::to_string(rows) + " for " + game_->name()};
        return "";
    }

    std::string play(const std::vector<std::string>& args) {
        expect(args, 2, "play COLOUR MOVE");
        int who = colour(args[0]);
        if (game_->outcome() != ONGOING) throw Failure{"illegal move: the game is over"};
        if (who != game_->side())
            throw Failure{std::string("illegal move: ") + COLOUR_NAME[who] + " is not to move"};
        std::string error = game_->play(args[1]);
        if (!error.empty()) throw Failure{error};
        return "";
    }

    std::string genmove(const std::vector<std::string>& args) {
        expect(args, 1, "genmove COLOUR");
        int who = colour(args[0]);
        if (game_->outcome() != ONGOING) throw Failure{"game is over"};
        if (who != game_->side())
            throw Failure{std::string("illegal move: ") + COLOUR_NAME[who] + " is not to move"};
        return game_->genmove(allowance(who), options_, rng_);
    }

    // Seconds for this move: a fixed share of the main time left (plus most of a byo-yomi
    // stone's share), or of the period in byo-yomi, less a margin for pipes and start-up.
    // Without a clock: --move-time, or no limit at all with --sims (reproducible play).
    double allowance(int who) const {
        const Clock& c = clock_;
        bool unlimited = !c.set || (c.byo_yomi > 0 && c.stones == 0);
        if (unlimited) return options_.sims > 0 ? 1e9 : options_.move_time;
        double left = c.left[who] >= 0 ? c.left[who] : c.main;
        int stones = c.left[who] >= 0 ? c.left_stones[who] : 0;
        if (left <= 0 && stones == 0 && c.stones > 0) { left = c.byo_yomi; stones = c.stones; }
        double budget;
        if (stones > 0) {
            budget = 0.8 * left / stones;
        } else {
            double reserve = c.stones > 0 ? c.byo_yomi / c.stones : 0.0;
            budget = options_.time_fraction * left + 0.8 * reserve;
            budget = std::min(budget, 0.5 * left + 0.8 * reserve);
        }
        return std::max(0.005, budget - options_.margin);
    }

    std::string time_settings(const std::vector<std::string>& args) {
        expect(args, 3, "time_settings MAIN BYO_YOMI STONES");
        double main, byo;
        if (!parse_number(args[0], main) || !parse_number(args[1], byo) || main < 0 || byo < 0 ||
            !is_whole(args[2]))
            throw Failure{"syntax error: expected time_settings MAIN BYO_YOMI STONES"};
        clock_ = Clock{};
        clock_.set = true;
        clock_.main = main;
        clock_.byo_yomi = byo;
        clock_.stones = std::stoi(args[2]);
        return "";
    }

    std::string time_left(const std::vector<std::string>& args) {
        expect(args, 3, "time_left COLOUR SECONDS STONES");
        int who = colour(args[0]);
        double seconds;
        if (!parse_number(args[1], seconds) || !is_whole(args[2]))
            throw Failure{"syntax error: expected time_left COLOUR SECONDS STONES"};
        if (!clock_.set) { clock_.set = true; clock_.main = seconds; }
        clock_.left[who] = std::max(0.0, seconds);
        clock_.left_stones[who] = std::stoi(args[2]);
        return "";
    }
};

// Framing (SPEC 1.1): control characters other than tab and newline removed (so '\r' too),
// everything from '#' dropped, tabs as spaces.
std::vector<std::string> words_of(const std::string& raw) {
    std::string line;
    for (char c : raw) {
        unsigned char u = static_cast<unsigned char>(c);
        if (c == '#') break;
        if (c == '\t') line += ' ';
        else if (u >= 0x20 && u != 0x7f) line += c;
    }
    std::vector<std::string> words;
    std::istringstream stream(line);
    for (std::string word; stream >> word;) words.push_back(word);
    return words;
}

std::string format_answer(bool success, const std::string& id, const std::string& text) {
    std::string out = (success ? "=" : "?") + id;
    size_t start = 0;
    bool first = true;
    while (true) {
        size_t end = text.find('\n', start);
        std::string line =
            text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        if (first) {
            if (!line.empty()) out += " " + line;
            first = false;
        } else if (line.find_first_not_of(' ') != std::string::npos) {
            out += "\n" + line;
        }
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out + "\n\n";
}

int serve(const Options& options) {
    Engine engine(options);
    std::string raw;
    while (std::getline(std::cin, raw)) {
        std::vector<std::string> words = words_of(raw);
        if (words.empty()) continue;
        std::string id;
        if (is_whole(words[0])) {
            id = words[0];
            words.erase(words.begin());
        }
        std::string out;
        if (words.empty()) {
            out = format_answer(false, id, "syntax error: no command after the id");
        } else {
            std::vector<std::string> args(words.begin() + 1, words.end());
            try {
                out = format_answer(true, id, engine.answer(words[0], args));
            } catch (const Failure& failure) {
                out = format_answer(false, id, failure.message);
            } catch (const std::exception& error) {
                out = format_answer(false, id, std::string("internal error: ") + error.what());
            }
        }
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::fflush(stdout);
        if (engine.quit()) break;
    }
    return 0;
}

int bench(double seconds, const Options& options) {
    struct Case { const char* game; int cols, rows; };
    const Case cases[] = {{"clobber", 10, 10}, {"breakthrough", 8, 8}, {"loa", 8, 8}};
    Rng rng(options.seed);
    for (const Case& c : cases) {
        auto game = make_game(c.game);
        game->resize(c.cols, c.rows);
        long long sims = 0;
        double spent = game->bench(seconds, options, rng, sims);
        std::printf("%-13s %dx%d  %9lld simulations in %5.2f s  %8.0f simulations/s"
                    " (start position)\n",
                    c.game, c.cols, c.rows, sims, spent, sims / spent);
        std::fflush(stdout);
    }
    return 0;
}

const char* const USAGE =
    "usage: mcts_solver [--sims N] [--rate N] [--seed N] [--move-time S] [--time-fraction F]\n"
    "                   [--uct-c C] [--max-nodes N] [--verbose] [--bench [SECONDS]]\n"
    "A GTP engine (clobber, breakthrough, loa): UCT with random playouts and the MCTS-solver.\n";

}  // namespace

int main(int argc, char** argv) {
    Options options;
    options.seed =
        static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    double bench_seconds = -1;
    for (int i = 1; i < argc; ++i) {
        std::string flag = argv[i];
        auto value = [&](const char* what) -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "mcts_solver: %s needs a value\n%s", what, USAGE);
                std::exit(2);
            }
            return argv[++i];
        };
        try {
            if (flag == "--sims") options.sims = std::stoll(value("--sims"));
            else if (flag == "--rate") options.rate = std::stod(value("--rate"));
            else if (flag == "--seed") options.seed = std::stoull(value("--seed"));
            else if (flag == "--move-time") options.move_time = std::stod(value("--move-time"));
            else if (flag == "--time-fraction")
                options.time_fraction = std::stod(value("--time-fraction"));
            else if (flag == "--uct-c") options.search.uct_c = std::stod(value("--uct-c"));
            else if (flag == "--max-nodes")
                options.search.max_nodes = std::stoull(value("--max-nodes"));
            else if (flag == "--verbose") options.verbose = true;
            else if (flag == "--bench") {
                bench_seconds = 5;
                if (i + 1 < argc && argv[i + 1][0] != '-') bench_seconds = std::stod(argv[++i]);
            } else if (flag == "-h" || flag == "--help") {
                std::fputs(USAGE, stdout);
                return 0;
            } else {
                std::fprintf(stderr, "mcts_solver: unknown option %s\n%s", flag.c_str(), USAGE);
                return 2;
            }
        } catch (const std::exception&) {
            std::fprintf(stderr, "mcts_solver: bad value for %s\n", flag.c_str());
            return 2;
        }
    }
    if (bench_seconds >= 0) return bench(bench_seconds, options);
    return serve(options);
}
