//! The claim cards' strings of the cited papers in Chinese (see [`super::zh`]).

/// English card string → Chinese, numbers in the same order.
pub const CARDS: &[(&str, &str)] = &[
    ("Saponati et al. 2025", "Saponati 等 2025"),
    ("Hanin and Rolnick 2019", "Hanin 与 Rolnick 2019"),
    ("Kobayashi et al. 2020", "Kobayashi 等 2020"),
    ("Xiao et al. 2023", "Xiao 等 2023"),
    ("McGrath et al. 2023", "McGrath 等 2023"),
    ("Olsson et al. 2022", "Olsson 等 2022"),
    ("Abnar & Zuidema 2020", "Abnar & Zuidema 2020"),
    ("nostalgebraist 2020", "nostalgebraist 2020"),
    ("Belrose et al. 2023", "Belrose 等 2023"),
    ("Yang et al. 2024", "Yang 等 2024"),
    ("Arora et al. 2023", "Arora 等 2023"),
];
