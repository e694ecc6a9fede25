#include "frontend/nbrs_names.h"

#include <algorithm>

namespace polydat::frontend {

namespace {
// nb-rs's GK functions (nosqlbench/nb-rs at 376f64a: the names registered in
// nbrs-variates/src and the modules of nbrs-variates/stdlib), sorted.
constexpr std::string_view kNames[] = {
    "abs_f64", "acos", "add", "alpha_numeric", "array_at", "array_len", "asin", "at", "atan", "atan2",
    "bimodal_latency", "blend", "body_column_i32", "bounded_normal_int", "bytes_from_hash", "cardinality",
    "ceil_to_multiple", "ceil_to_u64", "chance", "char_buf", "checked_add", "checked_mul", "checked_sub", "clamp",
    "clamp_f64", "clamp_in", "combinations", "concurrency", "control", "control_bool", "control_set", "control_str",
    "control_u64", "cos", "cosine_wave", "counter", "country_names", "csv_field", "csv_row", "csv_row_count",
    "current_epoch_millis", "cycle", "cycle_walk", "dataset_group_open", "dataset_open", "dataset_prebuffer",
    "dataset_profile_name_at", "date_components", "debug_repr", "default_or", "discretize", "dist_empirical",
    "dist_exponential", "dist_normal", "dist_pareto", "dist_uniform", "dist_zipf", "div", "div_wire",
    "dynamic_weighted_select", "elapsed_millis", "end_of", "env", "env_or", "epoch_offset", "epoch_scale",
    "escape_json", "euler_circuit", "exp", "exponential_latency", "exponential_sample", "f64_add", "f64_div",
    "f64_eq", "f64_ge", "f64_gt", "f64_le", "f64_lt", "f64_mod", "f64_mul", "f64_ne", "f64_sub", "f64_to_u64",
    "fair_coin", "fft_analyze", "file_line_at", "first_names", "floor_to_u64", "format_f64", "format_u64",
    "fractal_noise_1d", "fractal_noise_2d", "from_base64", "from_hex", "full_names", "gaussian_latency", "hash",
    "hash_interval", "hash_range", "hash_range_offset", "hashed_id", "hashed_uuid", "hex_id", "histribution",
    "html_decode", "html_encode", "icd_exponential", "icd_normal", "identity", "idx_of", "in_range", "inspect",
    "interleave", "is_one_of", "is_positive", "jittered_ts", "json_merge", "json_text", "json_to_str", "jsonl_field",
    "jsonl_row", "jsonl_row_count", "lerp", "limit", "ln", "lut_sample", "matches", "matching_profiles", "max", "md5",
    "metric", "metric_window", "min", "mixed_radix", "mod", "mod_in", "mod_wire", "monotonic_ts", "mul",
    "multiples_at_least", "n_of", "normal_sample", "normalize_vector", "number_to_words", "one_of", "one_of_weighted",
    "padded_id", "partitions", "pcg", "pcg_stream", "perlin_1d", "perlin_2d", "phase", "pick", "pow", "printf",
    "product", "profile_base_count", "profile_facets", "quantize", "random_vector", "rate", "regex_match",
    "regex_replace", "required", "round_to_u64", "sawtooth", "scale_range", "select", "select_f64", "select_str",
    "select_u64", "service_latency", "service_model", "session_start_millis", "set_or_get", "sha256", "shuffle",
    "shuffled_id", "simplex_2d", "sin", "sine_unit", "sine_wave", "sqrt", "square_wave", "start_of", "state_codes",
    "str_concat", "str_eq", "str_ne", "sum", "tan", "this_or", "thread_id", "tmp_dir", "to_base64", "to_f64",
    "to_hex", "to_json", "to_timestamp", "triangle_wave", "type_of", "u64_add", "u64_and", "u64_div", "u64_eq",
    "u64_ge", "u64_gt", "u64_le", "u64_lt", "u64_mod", "u64_mul", "u64_ne", "u64_not", "u64_or", "u64_shl", "u64_shr",
    "u64_sub", "u64_to_bytes", "u64_xor", "unfair_coin", "uniform_sample", "unit_interval", "url_decode",
    "url_encode", "weighted_pick", "weighted_strings", "weighted_u64", "zero_pad_u64", "zipf_sample",
};
}  // namespace

bool is_nbrs_function(std::string_view name) { return std::binary_search(std::begin(kNames), std::end(kNames), name); }

std::vector<std::string_view> nbrs_function_names() { return {std::begin(kNames), std::end(kNames)}; }

}  // namespace polydat::frontend
